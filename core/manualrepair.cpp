#include "core/manualrepair.h"

#include "core/klusterfetch.h"
#include "core/permission.h"
#include "core/repairproposal.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace {

// A word for a shell: as it is where it needs no quoting, else in single quotes.
QString shellWord(const QString &word)
{
    static const QString plain
        = QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,@%+");
    const bool safe = !word.isEmpty()
        && std::all_of(word.cbegin(), word.cend(), [](QChar c) { return plain.contains(c); });
    if (safe)
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// Positional arguments for a client: each quoted, after `--` when one could be taken for an option.
QString positionals(const QStringList &words)
{
    QStringList quoted;
    bool dash = false;
    for (const QString &w : words) {
        quoted << shellWord(w);
        dash = dash || w.startsWith(QLatin1Char('-'));
    }
    return (dash ? QStringLiteral("-- ") : QString()) + quoted.join(QLatin1Char(' '));
}

// A Markdown fence longer than any run of backticks in `text`: what it holds cannot close it.
QString fenceFor(const QString &text)
{
    int longest = 0;
    int run = 0;
    for (const QChar c : text) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return QString(std::max(3, longest + 1), QLatin1Char('`'));
}

// Inline code that holds `text` whatever backticks it has.
QString inlineCode(const QString &text)
{
    QString flat = text;
    flat.replace(QLatin1Char('\n'), QLatin1Char(' '));
    const QString fence = fenceFor(flat).left(std::max(1, int(fenceFor(flat).size()) - 2));
    return fence + QLatin1Char(' ') + flat + QLatin1Char(' ') + fence;
}

QString variableFor(const QString &service)
{
    return QLatin1Char('$') + service.toUpper() + QStringLiteral("_URL");
}

QString curlOf(const PlannedRequest &r, const QString &kluster, const Credentials *credentials)
{
    if (r.service == QLatin1String("kubernetes")) // the kluster's API server, with kubectl's credentials
        return QStringLiteral("kubectl --context %1 %2 --raw %3")
            .arg(shellWord(kluster),
                r.method == QLatin1String("DELETE") ? QStringLiteral("delete") : QStringLiteral("create"),
                shellWord(r.path));
    // The endpoint as the session used it, or a variable to set; every part from the cloud quoted for the
    // shell.
    const QString base = credentials ? credentials->endpoints.value(r.service) : QString();
    const QString url = base.isEmpty()
        ? QStringLiteral("\"%1\"%2").arg(variableFor(r.service), shellWord(r.path))
        : shellWord(base + r.path);
    QString out
        = QStringLiteral("curl -sS -X %1 %2 -H \"X-Auth-Token: $OS_TOKEN\"").arg(shellWord(r.method), url);
    for (auto it = r.headers.constBegin(); it != r.headers.constEnd(); ++it)
        out += QStringLiteral(" -H %1").arg(
            shellWord(it.key() + QStringLiteral(": ") + it.value().toString()));
    if (!r.body.isNull() && !r.body.isUndefined()) {
        const QByteArray body = r.body.isObject()
            ? QJsonDocument(r.body.toObject()).toJson(QJsonDocument::Compact)
            : QJsonDocument(r.body.toArray()).toJson(QJsonDocument::Compact);
        out += QStringLiteral(" -H 'Content-Type: application/json' -d %1")
                   .arg(shellWord(QString::fromUtf8(body)));
    }
    return out;
}

QString routeArgs(const QJsonArray &routes)
{
    QStringList args;
    for (const QJsonValue v : routes) {
        const QJsonObject route = v.toObject();
        args << QStringLiteral("--route destination=%1,gateway=%2")
                    .arg(shellWord(route.value(QStringLiteral("destination")).toString()),
                        shellWord(route.value(QStringLiteral("nexthop")).toString()));
    }
    return args.join(QLatin1Char(' '));
}

// The client command that sends `r` as planned, and what it should change; the command is empty where
// none does (the ASR driver's API, a full-list update guarded by its revision).
void describe(const PlannedRequest &r, const QString &kluster, ManualStep *step)
{
    const QStringList parts
        = r.path.section(QLatin1Char('?'), 0, 0).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QJsonObject body = r.body.toObject();
    if (r.service == QLatin1String("kubernetes")) {
        if (r.method == QLatin1String("DELETE") && parts.value(2) == QLatin1String("nodes")) {
            step->command = QStringLiteral("kubectl --context %1 delete node %2")
                                .arg(shellWord(kluster), positionals({ parts.value(3) }));
            step->check = QStringLiteral("kubectl --context %1 get nodes").arg(shellWord(kluster));
            step->expect = QStringLiteral("no longer lists the node %1").arg(parts.value(3));
        }
        return;
    }
    if (r.service == QLatin1String("compute") && parts.value(0) == QLatin1String("servers")) {
        const QString server = positionals({ parts.value(1) });
        if (r.method == QLatin1String("DELETE")) {
            step->command = QStringLiteral("openstack server delete %1").arg(server);
            step->check = QStringLiteral("openstack server show %1").arg(server);
            step->expect = QStringLiteral("answers that there is no such server");
            return;
        }
        if (body.contains(QStringLiteral("addSecurityGroup"))) {
            const QString group = body.value(QStringLiteral("addSecurityGroup"))
                                      .toObject()
                                      .value(QStringLiteral("name"))
                                      .toString();
            step->command = QStringLiteral("openstack server add security group %1")
                                .arg(positionals({ parts.value(1), group }));
            step->check = QStringLiteral("openstack server show -c security_groups %1").arg(server);
            step->expect = QStringLiteral("lists %1").arg(group);
            return;
        }
        for (const auto &[action, verb] : { std::pair { "os-start", "start" },
                 std::pair { "resume", "resume" }, std::pair { "unpause", "unpause" } }) {
            if (body.contains(QLatin1String(action))) {
                step->command = QStringLiteral("openstack server %1 %2").arg(QLatin1String(verb), server);
                step->check = QStringLiteral("openstack server show -c status %1").arg(server);
                step->expect = QStringLiteral("says ACTIVE");
                return;
            }
        }
        return;
    }
    if (r.service != QLatin1String("network"))
        return;
    if (parts.value(1) == QLatin1String("security-group-rules") && r.method == QLatin1String("POST")) {
        const QJsonObject rule = body.value(QStringLiteral("security_group_rule")).toObject();
        step->command
            = QStringLiteral("openstack security group rule create --%1 --ethertype %2 --protocol %3 "
                             "--remote-ip %4 %5")
                  .arg(rule.value(QStringLiteral("direction")).toString(),
                      shellWord(rule.value(QStringLiteral("ethertype")).toString()),
                      shellWord(rule.value(QStringLiteral("protocol")).toString()),
                      shellWord(rule.value(QStringLiteral("remote_ip_prefix")).toString()),
                      positionals({ rule.value(QStringLiteral("security_group_id")).toString() }));
        step->check = QStringLiteral("openstack security group rule list %1")
                          .arg(positionals({ rule.value(QStringLiteral("security_group_id")).toString() }));
        step->expect = QStringLiteral("shows the rule");
        return;
    }
    if (parts.value(1) == QLatin1String("ports") && r.method == QLatin1String("PUT")) {
        const QJsonArray pairs = body.value(QStringLiteral("port"))
                                     .toObject()
                                     .value(QStringLiteral("allowed_address_pairs"))
                                     .toArray();
        const QString added = pairs.isEmpty()
            ? QString()
            : pairs.last().toObject().value(QStringLiteral("ip_address")).toString();
        step->command = QStringLiteral("openstack port set --allowed-address ip-address=%1 %2")
                            .arg(shellWord(added), positionals({ parts.value(2) }));
        step->check = QStringLiteral("openstack port show -c allowed_address_pairs %1")
                          .arg(positionals({ parts.value(2) }));
        step->expect = QStringLiteral("lists %1").arg(added);
        return;
    }
    if (parts.value(1) == QLatin1String("asr1k")) {
        step->expect = r.method == QLatin1String("DELETE")
            ? QStringLiteral(
                "the router's configuration is gone from its devices (send the sync next, at once)")
            : QStringLiteral("GET /v2.0/asr1k/routers/%1 reports no difference on either device")
                  .arg(parts.value(3));
        return; // no client speaks the driver's API: the request itself
    }
    if (parts.value(1) == QLatin1String("routers")) {
        const QString router = positionals({ parts.value(2) });
        step->check = QStringLiteral("openstack router show -c routes %1").arg(router);
        const QJsonArray routes
            = body.value(QStringLiteral("router")).toObject().value(QStringLiteral("routes")).toArray();
        if (parts.value(3) == QLatin1String("add_extraroutes")) {
            step->command = QStringLiteral("openstack router add route %1 %2").arg(routeArgs(routes), router);
            step->expect = QStringLiteral("lists the route(s) added");
        } else if (parts.value(3) == QLatin1String("remove_extraroutes")) {
            step->command
                = QStringLiteral("openstack router remove route %1 %2").arg(routeArgs(routes), router);
            step->expect = QStringLiteral("no longer lists the route(s) removed");
        } else {
            // The whole list, guarded by the revision it was planned from: no client sends If-Match.
            step->expect = QStringLiteral("holds exactly the %1 route(s) of the body; a 412 means the router "
                                          "changed since: plan again")
                               .arg(routes.size());
        }
    }
}

} // namespace

ManualRepair ManualRepair::of(const RepairPlan &plan, const QString &kluster, const Credentials *credentials)
{
    ManualRepair m;
    m.title = plan.title;
    m.kluster = kluster;
    m.why = plan.refusal == Refusal::NotPermitted ? plan.refusalDetail : QString();
    for (const PlannedRequest &r : plan.requests) {
        ManualStep step;
        step.what = r.summary();
        // Said per step where the plan has several (the refusal names the first denied one).
        if (r.permission.permission != Permission::Allowed && plan.requests.size() > 1)
            step.needs = r.permission.reason;
        describe(r, kluster, &step);
        step.curl = curlOf(r, kluster, credentials);
        m.steps.append(step);
    }
    m.verify
        = QStringLiteral("flightdeck-cli check --kluster %1 (the finding is gone), or Verify in the console")
              .arg(shellWord(kluster));
    return m;
}

QString ManualRepair::markdown() const
{
    // Headings and fenced blocks at the left margin: read the same in a ticket, a chat and the console. What
    // came from the cloud sits in code spans and fences no backtick of it can close.
    const auto block = [](const QString &code) {
        const QString fence = fenceFor(code);
        return QStringLiteral("%1sh\n%2\n%1\n").arg(fence, code);
    };
    QString md = QStringLiteral("## %1\n\nKluster %2.").arg(title, inlineCode(kluster));
    if (!why.isEmpty())
        md += QStringLiteral(" Not sent by Flightdeck: %1.").arg(why);
    md += QStringLiteral(
        "\n\nFor someone who may, in order (curl takes the token from `export OS_TOKEN=$(openstack "
        "token issue -f value -c id)`).\n");
    int n = 0;
    for (const ManualStep &s : steps) {
        md += QStringLiteral("\n### Step %1 of %2: %3\n\n")
                  .arg(++n)
                  .arg(steps.size())
                  .arg(inlineCode(s.what));
        if (!s.needs.isEmpty())
            md += QStringLiteral("Needs: %1.\n\n").arg(s.needs);
        if (!s.command.isEmpty())
            md += block(s.command) + QStringLiteral("\nor, exactly as planned:\n\n");
        md += block(s.curl);
        if (!s.check.isEmpty())
            md += QStringLiteral("\nThen %1 %2.\n").arg(inlineCode(s.check), s.expect);
        else if (!s.expect.isEmpty())
            md += QStringLiteral("\nThen: %1.\n").arg(s.expect);
    }
    md += QStringLiteral("\n**Verify:** %1.\n").arg(verify);
    return md;
}

QString ManualRepair::text() const
{
    QString out = QStringLiteral("Guided manual repair: %1 (kluster %2)\n").arg(title, kluster);
    if (!why.isEmpty())
        out += QStringLiteral("  Not sent: %1\n").arg(why);
    out += QStringLiteral(
        "  For someone who may, in order (curl: export OS_TOKEN=$(openstack token issue -f value -c id)):\n");
    int n = 0;
    for (const ManualStep &s : steps) {
        out += QStringLiteral("  %1. %2\n").arg(++n).arg(s.what);
        if (!s.needs.isEmpty())
            out += QStringLiteral("     needs: %1\n").arg(s.needs);
        if (!s.command.isEmpty())
            out += QStringLiteral("     $ %1\n").arg(s.command);
        out += QStringLiteral("     $ %1\n").arg(s.curl);
        if (!s.check.isEmpty())
            out += QStringLiteral("     then: $ %1  (%2)\n").arg(s.check, s.expect);
        else if (!s.expect.isEmpty())
            out += QStringLiteral("     then: %1\n").arg(s.expect);
    }
    out += QStringLiteral("  Verify: %1\n").arg(verify);
    return out;
}

QList<HandOff> HandOff::of(const RepairProposal &proposal)
{
    QList<HandOff> out;
    const Credentials *credentials = proposal.fetch() ? proposal.fetch()->state.credentials.get() : nullptr;
    bool routeChange = false;
    for (const RepairGate::Decision &d : proposal.gate().decisions()) {
        if (d.reason != Refusal::NotPermitted || !d.plan)
            continue;
        if (d.combined && std::exchange(routeChange, true))
            continue; // the one route change is handed over once
        HandOff h;
        const bool combined = d.combined && proposal.gate().routeChange();
        h.plan = combined ? *proposal.gate().routeChange() : *d.plan;
        h.findings = combined ? proposal.gate().routeChangeFindings() : QStringList { d.finding->id() };
        h.guide = ManualRepair::of(h.plan, proposal.kluster(), credentials);
        out.append(h);
    }
    return out;
}

QString HandOff::markdown(const QList<HandOff> &handOffs)
{
    QStringList parts;
    for (const HandOff &h : handOffs)
        parts << h.guide.markdown();
    return parts.join(QLatin1Char('\n'));
}
