#pragma once

#include "core/routerdevice.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

struct KlusterState;

// What one device holds of one route, beside Neutron.
struct DeviceCell
{
    enum State
    {
        Absent, // neither Neutron nor the device has it (a route a node needs, say)
        Holds, // as Neutron: the device holds it at `position`
        Lacks, // Neutron has it, the device does not
        Extra, // the device holds it at `position`, Neutron does not
        InStep, // the driver named no difference: the device holds what Neutron does
        Unknown, // the part of the device's routes that would say is not known
    };
    State state = Absent;
    int position = -1; // in the device's order (0: first), where it holds the route

    bool isProblem() const { return state == Lacks || state == Extra; }
    QString text() const; // "#3", "missing", "#1, not in Neutron", "as Neutron", "unknown", ""
    QString name() const; // "holds", "lacks", "extra", "in-step", "unknown", "absent" (the JSON's words)
    friend bool operator==(const DeviceCell &a, const DeviceCell &b)
    {
        return a.state == b.state && a.position == b.position;
    }
};

// The router's routes beside what each device of its HA pair holds (the Routes view's device columns,
// `flightdeck-cli routes`): the devices in columns, the ACTIVE first, then the STANDBY, then those whose role
// is not known (by host); where the driver named no difference, one column that holds what Neutron does.
class DeviceColumns
{
public:
    // `devices`: as judged (Diagnosis::routerDevices: with their roles).
    DeviceColumns(const KlusterState &state, const RouterDevices &devices);

    bool isRead() const { return m_read; } // the devices' view was read
    QString why() const { return m_why; } // not read: why (empty where the cloud has no driver)
    int count() const { return int(m_headers.size()); }
    QString header(int column) const { return m_headers.value(column); } // "ACTIVE 10.44.1.35"
    const RouterDevice *device(int column) const; // null for the in-step column
    DeviceCell cell(int column, const Route &route) const;
    // The routes some device holds that Neutron does not, each once, in the order the devices hold them.
    const QList<Route> &onlyOnDevices() const { return m_extra; }
    QStringList notes() const { return m_notes; }

private:
    QList<RouterDevice> m_devices; // in column order
    QStringList m_headers;
    QList<Route> m_extra;
    QStringList m_notes;
    QString m_why;
    QSet<QString> m_inNeutron;
    bool m_read = false;
    bool m_inStep = false;
};
