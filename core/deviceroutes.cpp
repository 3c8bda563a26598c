#include "core/deviceroutes.h"

#include "core/cidr.h"
#include "core/klusterstate.h"

#include <algorithm>

QString DeviceCell::text() const
{
    switch (state) {
    case Holds:
        return QStringLiteral("#%1").arg(position + 1);
    case Lacks:
        return QStringLiteral("missing");
    case Extra:
        return QStringLiteral("#%1, not in Neutron").arg(position + 1);
    case InStep:
        return QStringLiteral("as Neutron");
    case Unknown:
        return QStringLiteral("unknown");
    case Absent:
        break;
    }
    return QString();
}

QString DeviceCell::name() const
{
    switch (state) {
    case Holds:
        return QStringLiteral("holds");
    case Lacks:
        return QStringLiteral("lacks");
    case Extra:
        return QStringLiteral("extra");
    case InStep:
        return QStringLiteral("in-step");
    case Unknown:
        return QStringLiteral("unknown");
    case Absent:
        break;
    }
    return QStringLiteral("absent");
}

DeviceColumns::DeviceColumns(const KlusterState &state, const RouterDevices &devices)
    : m_notes(devices.notes)
    , m_why(state.routerDeviceSource.error)
    , m_read(state.routerDeviceSource.known && state.routerSource.known)
{
    if (!m_read)
        return;
    for (const Route &r : state.router.routes)
        m_inNeutron.insert(canonicalRoute(r));
    if (devices.devices.isEmpty()) {
        // The driver named no difference: every device holds what Neutron does (its hosts are not named).
        m_inStep = devices.inStep;
        if (m_inStep)
            m_headers << QStringLiteral("Devices (in step)");
        return;
    }
    m_devices = devices.devices;
    const auto rank = [](DeviceRole role) {
        return role == DeviceRole::Active ? 0 : role == DeviceRole::Standby ? 1 : 2;
    };
    std::stable_sort(m_devices.begin(), m_devices.end(), [&](const RouterDevice &a, const RouterDevice &b) {
        return rank(a.role) != rank(b.role) ? rank(a.role) < rank(b.role) : a.host < b.host;
    });
    QSet<QString> seen;
    for (const RouterDevice &d : std::as_const(m_devices)) {
        m_headers << (d.role == DeviceRole::Unknown
                ? QStringLiteral("%1 (role unknown)").arg(d.host)
                : QStringLiteral("%1 %2").arg(deviceRoleName(d.role), d.host));
        const qsizetype end = d.knowsAll() ? d.routes.size() : std::min<qsizetype>(d.known, d.routes.size());
        for (qsizetype i = 0; i < end; ++i) {
            const Route &r = d.routes.at(i);
            const QString key = canonicalRoute(r);
            if (r.nexthop.isEmpty() || m_inNeutron.contains(key) || seen.contains(key))
                continue; // the gateway's default route (not Neutron's to list), or one listed already
            seen.insert(key);
            m_extra << r;
        }
    }
}

const RouterDevice *DeviceColumns::device(int column) const
{
    return column >= 0 && column < m_devices.size() ? &m_devices.at(column) : nullptr;
}

DeviceCell DeviceColumns::cell(int column, const Route &route) const
{
    if (!Cidr::parse(route.destination).isIPv4())
        return DeviceCell(); // the driver programs the devices' IPv4 routes only
    const bool inNeutron = m_inNeutron.contains(canonicalRoute(route));
    if (m_inStep)
        return DeviceCell { column == 0 && inNeutron ? DeviceCell::InStep : DeviceCell::Absent, -1 };
    const RouterDevice *d = device(column);
    if (!d)
        return DeviceCell();
    const std::optional<int> at = d->positionOf(route);
    if (!at)
        return DeviceCell { inNeutron ? DeviceCell::Unknown : DeviceCell::Absent, -1 };
    if (*at >= 0)
        return DeviceCell { inNeutron ? DeviceCell::Holds : DeviceCell::Extra, *at };
    return DeviceCell { inNeutron ? DeviceCell::Lacks : DeviceCell::Absent, -1 };
}
