#include "console/rowcopies.h"

#include "core/printable.h"

#include <QCoreApplication>

namespace RowCopies {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("RowCopies", text);
}

// A shell word: quoted when it holds anything a shell would read otherwise.
QString shellWord(const QString &word)
{
    static const QString plain
        = QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,");
    for (const QChar c : word) {
        if (!plain.contains(c)) {
            QString quoted = word;
            quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
            return QLatin1Char('\'') + quoted + QLatin1Char('\'');
        }
    }
    return word.isEmpty() ? QStringLiteral("''") : word;
}

// Names from the cloud reach a terminal when pasted: control characters shown as escapes (core/printable).
void add(QList<Copyable> &out, const QString &label, const QString &raw)
{
    if (raw.isEmpty())
        return;
    const QString text = printable(raw);
    for (const Copyable &c : std::as_const(out)) {
        if (c.text == text)
            return;
    }
    out.append({ label.arg(text), text });
}

void instance(QList<Copyable> &out, const KlusterState &state, const QString &name)
{
    for (const Instance &i : state.instances) {
        if (i.name != name)
            continue;
        add(out, tr("Instance id %1"), i.id);
        add(out, tr("Address %1"), i.fixedAddress());
        add(out, tr("%1"), QStringLiteral("openstack server show ") + shellWord(i.id));
        return;
    }
}

void node(QList<Copyable> &out, const KlusterState &state, const QString &name)
{
    for (const Node &n : state.nodes) {
        if (n.name != name)
            continue;
        add(out, tr("InternalIP %1"), n.internalIp);
        add(out, tr("Pod CIDR %1"), n.podCidrText);
        add(out, tr("%1"),
            QStringLiteral("kubectl get node ") + shellWord(n.name) + QStringLiteral(" -o yaml"));
        return;
    }
}

void router(QList<Copyable> &out, const KlusterState &state)
{
    const QString id = state.router.id.isEmpty() ? state.kluster.routerId : state.router.id;
    add(out, tr("Router id %1"), id);
    if (!id.isEmpty())
        add(out, tr("%1"),
            QStringLiteral("openstack router show ") + shellWord(id) + QStringLiteral(" -c routes"));
}

void group(QList<Copyable> &out, const KlusterState &state)
{
    const QString &name = state.kluster.securityGroupName;
    add(out, tr("Security group %1"), name);
    if (!name.isEmpty())
        add(out, tr("%1"), QStringLiteral("openstack security group rule list ") + shellWord(name));
}

} // namespace

QList<Copyable> of(RowKind kind, const QString &key, const KlusterState &state, const Diagnosis &diagnosis)
{
    QList<Copyable> out;
    switch (kind) {
    case RowKind::Finding: {
        add(out, tr("Finding id %1"), key);
        const Finding *f = diagnosis.find(key);
        if (!f)
            break;
        add(out, tr("Message: %1"), f->message());
        const AffectedObjects a = f->affected();
        for (const QString &name : a.instances) {
            add(out, tr("Name %1"), name);
            instance(out, state, name);
        }
        for (const QString &name : a.nodes) {
            add(out, tr("Name %1"), name);
            node(out, state, name);
        }
        if (!a.routes.isEmpty() || findingFamily(f->kind) == FindingFamily::Route)
            router(out, state);
        if (!a.securityGroups.isEmpty())
            group(out, state);
        break;
    }
    case RowKind::Node:
        add(out, tr("Name %1"), key);
        instance(out, state, key);
        node(out, state, key);
        break;
    case RowKind::Route: {
        const QString destination = key.section(QStringLiteral(" via "), 0, 0);
        const QString nexthop = key.section(QStringLiteral(" via "), 1);
        add(out, tr("Destination %1"), destination);
        add(out, tr("Nexthop %1"), nexthop);
        add(out, tr("Route %1"), nexthop.isEmpty() ? QString() : key);
        router(out, state);
        break;
    }
    case RowKind::Security:
        if (key.startsWith(QLatin1String("instance:"))) {
            const QString name = key.mid(9);
            add(out, tr("Name %1"), name);
            instance(out, state, name);
        }
        group(out, state);
        break;
    }
    // The message can be long: the menu shows its start.
    for (Copyable &c : out) {
        if (c.label.size() > 90)
            c.label = c.label.left(88) + QStringLiteral("…");
    }
    return out;
}

QString rowsText(const QStringList &header, const QList<QStringList> &rows)
{
    QStringList lines { header.join(QLatin1Char('\t')) };
    for (const QStringList &row : rows) {
        QStringList cells;
        for (const QString &cell : row)
            cells << printable(cell); // a tab or a line break in a cell would move the columns
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace RowCopies
