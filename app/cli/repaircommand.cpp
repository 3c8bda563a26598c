// flightdeck-cli repair: fetch the kluster, print the plan, send it with --yes through the one repair run the
// console uses too (services/repair/repairsession.h), verify, audit.

#include "app/cli/clioptions.h"
#include "app/cli/livecommands.h"
#include "app/cli/manualrepairs.h"
#include "app/cli/terminal.h"
#include "core/debrisfindings.h"
#include "core/printable.h"
#include "core/repairgate.h"
#include "services/history/historystore.h"
#include "services/http/httpclient.h"
#include "services/kubernetes/kubernetesclient.h"
#include "services/openstack/keystonesession.h"
#include "services/openstack/klusterfetcher.h"
#include "services/repair/eventwriter.h"
#include "services/repair/repairsession.h"
#include "services/repair/repairsilences.h"
#include "services/routehistories.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QJsonDocument>
#include <QTextStream>
#include <algorithm>

namespace {

void printPlan(QTextStream &out, const RepairPlan &plan)
{
    out << "Plan: " << printable(plan.title) << "\n";
    for (const PlannedRequest &r : plan.requests) {
        out << "  " << r.method << " " << r.service << " " << printable(r.path);
        for (auto h = r.headers.begin(); h != r.headers.end(); ++h)
            out << " [" << printable(h.key()) << ": " << printable(h.value().toString()) << "]";
        out << "\n";
        if (!r.body.isNull())
            out << "    " << QJsonDocument(r.body.toObject()).toJson(QJsonDocument::Compact) << "\n";
    }
}

// The router's routes before and after the one change, each marked: "-" removed, "+" added.
void printRouteChange(QTextStream &out, const RepairGate &gate)
{
    out << "The router's routes, before and after (- removed, + added):\n";
    for (const RepairGate::RouteLine &line : gate.routeChangeLines()) {
        const char *mark = line.change == RepairGate::RouteLine::Change::Removed ? "-"
            : line.change == RepairGate::RouteLine::Change::Added                ? "+"
                                                                                 : " ";
        out << "  " << mark << " " << line.route.destination << " via " << line.route.nexthop << "\n";
    }
}

// The exit status of several outcomes: the worst of 0 fixed, 1 still there, 2 refused, 3 failed.
int exitStatusOf(RepairExecutor::Outcome::Result result)
{
    using R = RepairExecutor::Outcome::Result;
    switch (result) {
    case R::Fixed:
        return 0;
    case R::StillThere:
        return 1;
    case R::Refused:
        return 2;
    case R::Failed:
    case R::Changed:
    case R::InProgress: // not an executor's outcome
    case R::Interrupted:
    case R::Unknown:
        return 3;
    }
    return 3;
}

void printOutcome(QTextStream &out, const RepairExecutor::Outcome &o)
{
    for (const AuditRequest &r : o.requests) {
        out << "  " << r.request.method << " " << printable(r.request.path) << " -> " << r.status << " "
            << printable(r.outcome) << "\n";
    }
    out << "Result: " << RepairExecutor::Outcome::resultName(o.result) << ": " << printable(o.message)
        << Qt::endl;
    // Teammates see the repair as Kubernetes Events in the kluster (kubectl events): said whether they could.
    if (!o.events.isEmpty())
        out << "Events: " << printable(o.events.join(QStringLiteral("; "))) << Qt::endl;
    QTextStream err(Terminal::err());
    if (!o.auditError.isEmpty())
        err << "flightdeck-cli repair: the audit record could not be written: " << o.auditError << Qt::endl;
    if (o.refusedDeviceSync())
        out << "These credentials may not send the router driver's sync: a route the ACTIVE device lacks is "
               "repaired without it by --nudge (removed in Neutron and added again)."
            << Qt::endl;
    if (o.result == RepairExecutor::Outcome::Result::Refused)
        err << "flightdeck-cli repair: refused: " << o.message << Qt::endl;
    else if (exitStatusOf(o.result) == 3)
        err << "flightdeck-cli repair: " << o.message << Qt::endl;
}

// Prints each finding chosen with its plan (a combined route change once), and says why each refused one
// would be refused. Returns those reasons.
QStringList printDecisions(QTextStream &out, const RepairProposal &proposal, bool override)
{
    const RepairGate &gate = proposal.gate();
    QStringList refusals;
    // The requests a confirmation sends to each router's devices, merged (one sync, or one teardown and
    // sync), printed once where the first finding they repair stands.
    QHash<QString, RepairPlan> merged;
    for (const RepairGate::Step &step : gate.steps()) {
        if (step.plan.actsOnDevices())
            merged.insert(step.plan.requests.constLast().path, step.plan);
    }
    QHash<QString, QString> devicesOf; // a router's device path -> the first finding printed with it
    for (const RepairGate::Decision &d : gate.decisions()) {
        const Finding &finding = *d.finding;
        out << "[" << severityName(finding.severity).toUpper() << "] " << printable(finding.id()) << "\n  "
            << printable(finding.message()) << "\n";
        if (d.verdict == RepairGate::Verdict::NoRepair) {
            out << "This finding has no repair of its own." << Qt::endl;
            refusals << finding.id() + QStringLiteral(": it has no repair of its own");
            continue;
        }
        const QString path = d.plan->actsOnDevices() ? d.plan->requests.constLast().path : QString();
        const QString devices = d.mayBeSent(true) && merged.contains(path) ? path : QString();
        if (d.combined) {
            out << "Repaired by the one route change below.\n";
        } else if (devices.isEmpty()) {
            printPlan(out, *d.plan);
        } else if (devicesOf.contains(devices)) {
            out << "Repaired by the same request to the router's devices as "
                << printable(devicesOf.value(devices)) << ".\n";
        } else {
            printPlan(out, merged.value(devices));
            devicesOf.insert(devices, finding.id());
        }
        if (!d.mayBeSent(override))
            refusals << finding.id() + QStringLiteral(": ")
                    + d.why(d.reason == Refusal::ProtectedRouter
                            ? QStringLiteral("--override tears the devices down anyway")
                            : d.reason == Refusal::AutomationPending
                            ? QStringLiteral("--override AutomationPending repairs it now")
                            : QStringLiteral("--override deletes this one instance or node anyway"));
    }
    if (const std::optional<RepairPlan> &change = gate.routeChange()) {
        out << "One change of the router for " << gate.routeChangeFindings().size() << " findings ("
            << printable(gate.routeChangeFindings().join(QStringLiteral(", "))) << "):\n";
        printPlan(out, *change);
        printRouteChange(out, gate);
    }
    return refusals;
}

// The refusals an explicit override may let through, one finding alone.
const QStringList &overridableReasons()
{
    static const QStringList reasons { refusalName(Refusal::TooManyUnhealthy),
        refusalName(Refusal::ZoneDisruption), refusalName(Refusal::ProtectedRouter),
        refusalName(Refusal::AutomationPending) };
    return reasons;
}

} // namespace

int runRepairCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("repair");
    QCommandLineParser parser;
    parser.addOption({ QStringLiteral("finding"),
        QStringLiteral("A finding to repair, by id (<kind>:<subject>, as check prints it), or an incident "
                       "(<rule>:<key>): its one repair. Give it once per finding to repair several; their "
                       "route changes are sent as one change."),
        QStringLiteral("id") });
    parser.addOption({ QStringLiteral("all-routes"),
        QStringLiteral("Repair every route finding of the kluster's router that has a repair, as one change "
                       "of the router.") });
    parser.addOption(
        { QStringLiteral("yes"), QStringLiteral("Send the plan. Without it, the plan is only printed.") });
    parser.addOption({ QStringLiteral("dry-run"),
        QStringLiteral("Only print the plan (what it does without --yes, said explicitly).") });
    parser.addOption({ QStringLiteral("override"),
        QStringLiteral(
            "Repair this one finding although it is refused with a reason that may be overridden: "
            "delete the instance or node past the remediation budget (TooManyUnhealthy) or in a "
            "zone that is down (ZoneDisruption), tear a protected kluster's router's devices down "
            "(ProtectedRouter), repair now what Kubernikus' automation is due to (AutomationPending). "
            "Optionally names the reason (--override AutomationPending): then only that one is "
            "overridden. Only with a single --finding, but for AutomationPending.") });
    parser.addOption({ QStringLiteral("router"),
        QStringLiteral(
            "With a plan that tears a router's configuration on its devices down (device-route-stale): "
            "the router's name, typed to confirm (every kluster on it loses its routes until the sync "
            "ends)."),
        QStringLiteral("name") });
    parser.addOption({ QStringLiteral("protected"),
        QStringLiteral(
            "Treat the kluster as protected, as the console's protected klusters are: a teardown of "
            "its router's devices is refused without --override.") });
    parser.addOption({ QStringLiteral("nudge"),
        QStringLiteral(
            "Repair a route a router's device lacks (device-route-missing) by removing it from the router "
            "in Neutron and adding it again (the driver's agent programs it on the devices again), not "
            "by the driver's sync: for credentials that may not sync (a cloud admin's), or to touch one "
            "route only.") });
    parser.addOption({ QStringLiteral("verify"),
        QStringLiteral(
            "Verify a guided manual repair (a plan these credentials may not send, handed over): read the "
            "kluster again and record in the audit log whether its findings are gone (\"repaired by someone "
            "else, verified\") or not yet. Exit status 0 verified, 1 not yet."),
        QStringLiteral("audit-id") });
    parser.addOption({ QStringLiteral("silence"),
        QStringLiteral(
            "With --alertmanager: silence the alerts of these findings while repairing (one silence "
            "per alert, recorded in the audit log), expired once the repair is verified, kept if "
            "it is not.") });
    parser.addOption(
        { QStringLiteral("silence-minutes"), QStringLiteral("How long a silence lasts at most (default 60)."),
            QStringLiteral("minutes"), QStringLiteral("60") });
    CliOptions::addDiagnosis(parser);
    CliOptions::addAlertmanager(parser);
    // --override may name the reason it overrides (--override AutomationPending, --override=…): taken out of
    // the arguments before they are parsed (the option itself is a switch).
    QStringList args = arguments;
    QString overrideReason;
    for (int i = 0; i < args.size(); ++i) {
        if (args.at(i).startsWith(QLatin1String("--override="))) {
            overrideReason = args.at(i).mid(11);
            args[i] = QStringLiteral("--override");
        } else if (args.at(i) == QLatin1String("--override") && i + 1 < args.size()
            && overridableReasons().contains(args.at(i + 1))) {
            overrideReason = args.takeAt(i + 1);
        }
    }
    if (!overrideReason.isEmpty() && !overridableReasons().contains(overrideReason))
        return CliOptions::fail(command,
            QStringLiteral("--override: \"%1\" is no reason that may be overridden (%2)")
                .arg(overrideReason.left(40), overridableReasons().join(QStringLiteral(", "))));
    CliOptions::Parsed p;
    if (const int status = CliOptions::parseCloudCommand(parser, args, command,
            QStringLiteral(
                "Repair findings: fetch the kluster, print the plan (the exact requests), "
                "send it only with --yes, verify by fetching again, and append the audit log.\n"
                "Exit status: 0 fixed (or the plan printed), 1 sent but still there, 2 refused (or the "
                "plan changed before it was sent: nothing sent, the new plan printed), 3 failed or "
                "could not run (with several findings: the worst of them)."),
            true, &p);
        status >= 0)
        return status;
    QString error;
    std::optional<DiagnosisOptions> options = CliOptions::readDiagnosis(parser, &error);
    if (!options)
        return CliOptions::fail(command, error);
    options->nudgeDeviceRoutes = parser.isSet(QStringLiteral("nudge"));
    if (parser.isSet(QStringLiteral("dry-run")) && parser.isSet(QStringLiteral("yes")))
        return CliOptions::fail(command, QStringLiteral("--dry-run and --yes: one or the other"));
    const bool allRoutes = parser.isSet(QStringLiteral("all-routes"));
    const QStringList findingIds = parser.values(QStringLiteral("finding"));
    const QString verifyId = parser.value(QStringLiteral("verify"));
    if (!verifyId.isEmpty()) {
        if (!findingIds.isEmpty() || allRoutes || parser.isSet(QStringLiteral("yes")))
            return CliOptions::fail(
                command, QStringLiteral("--verify takes no --finding, --all-routes or --yes"));
    } else if (findingIds.isEmpty() && !allRoutes)
        return CliOptions::fail(command, QStringLiteral("give --finding ID (from check), or --all-routes"));
    const bool override = parser.isSet(QStringLiteral("override"));
    // Named AutomationPending, it may repair several at once (an incident's repair): only a race is at stake.
    if (override && overrideReason != refusalName(Refusal::AutomationPending)
        && (findingIds.size() != 1 || allRoutes))
        return CliOptions::fail(command,
            QStringLiteral(
                "--override lets one repair through, alone (a deletion past the budget, a teardown "
                "of a protected router's devices, a repair Kubernikus' automation is due to make): "
                "give exactly one --finding"));

    const std::optional<AlertmanagerTarget> alertmanager = CliOptions::readAlertmanager(parser, &error);
    if (!alertmanager)
        return CliOptions::fail(command, error);
    const bool silence = parser.isSet(QStringLiteral("silence"));
    if (silence && !alertmanager->isSet())
        return CliOptions::fail(command, QStringLiteral("--silence needs --alertmanager URL"));
    bool minutesOk = false;
    const int silenceMinutes = parser.value(QStringLiteral("silence-minutes")).toInt(&minutesOk);
    if (!minutesOk || silenceMinutes < 1 || silenceMinutes > 7 * 24 * 60)
        return CliOptions::fail(command,
            QStringLiteral("--silence-minutes: \"%1\" is not a count of minutes from 1 to 10080")
                .arg(parser.value(QStringLiteral("silence-minutes")).left(40)));

    HttpClient client;
    KeystoneSession session(&client, *p.cloud);
    AlertmanagerClient alertmanagerClient(&client, *alertmanager);
    const RepairSilences::Context silenceContext { p.cloud->name,
        p.cloud->username.isEmpty() ? p.cloud->userId : p.cloud->username, p.cloud->projectName,
        p.cloud->projectId, p.kluster };
    RepairSilences silences(&alertmanagerClient, silenceContext);
    KlusterFetcher fetcher(&session, p.kluster);
    fetcher.setAccessReviews(true); // may its Kubernetes writes be made (diagnosis.md §8)
    // A volume or load balancer asked for by id: read whatever the kluster's phase, to say why it is not one.
    fetcher.setDebrisAlways(std::any_of(findingIds.cbegin(), findingIds.cend(), [](const QString &id) {
        return id.startsWith(QLatin1String("volume-")) || id.startsWith(QLatin1String("loadbalancer-"));
    }));
    if (p.kube)
        fetcher.setKubeTarget(*p.kube);
    if (options->routeLimitExplicit)
        fetcher.setRouteLimit(options->routeLimit);
    QTextStream out(Terminal::out());
    std::unique_ptr<RepairSession> run;
    bool overridden = false; // --override, and the reason it names (if any) is the one refusing
    int worst = 0;
    bool anySent = false; // a request of the repair was sent
    QObject::connect(&fetcher, &KlusterFetcher::finished, &fetcher, [&](KlusterFetch fetch) {
        if (!fetch.state.klusterSource.known) {
            QCoreApplication::exit(CliOptions::fail(command, SourceError::joined(fetch.errors)));
            return;
        }
        // Judged with what the local history kept, as check judges (read-only: when Kubernikus' automation
        // is due, route-recycled); the history keeps this machine's time, capturedAt the cloud's.
        {
            const QDateTime at = fetch.state.capturedAt;
            const qint64 shift
                = at.msecsTo(HistoryStore::localInstant(at, client.serverClockOffsetMs())) * -1;
            KeptHistory::read(fetch.state, shift).applyTo(fetch.state, shift);
        }
        const auto diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(fetch.state, *options));
        if (!verifyId.isEmpty()) {
            if (!fetch.errors.isEmpty()) { // a source not read proves nothing gone
                QCoreApplication::exit(CliOptions::fail(command, SourceError::joined(fetch.errors)));
                return;
            }
            std::optional<RepairEvent> event;
            const int status = ManualRepairs::verify(out, verifyId, fetch, *diagnosis, &event);
            if (!event) {
                QCoreApplication::exit(status);
                return;
            }
            // Teammates read it where they read every repair: the kluster's Events.
            auto post = [&out, &client, &fetcher, status, event](
                            const std::optional<KubeTarget> &target, const Error &why) {
                if (!target) {
                    out << "  (the Kubernetes Event RepairVerified was not written: "
                        << printable(why.toString()) << ")" << Qt::endl;
                    QCoreApplication::exit(status);
                    return;
                }
                auto *kube = new KubernetesClient(&client, *target, &fetcher);
                QObject::connect(RepairEventWriter::write(kube, *event), &HttpCall::finished, &fetcher,
                    [&out, status](const ApiResponse &r) {
                        out << "  The Kubernetes Event RepairVerified"
                            << printable(RepairEventWriter::outcome(r)) << "." << Qt::endl;
                        QCoreApplication::exit(status);
                    });
            };
            if (fetcher.kubeTarget())
                post(fetcher.kubeTarget(), Error());
            else
                KlusterFetcher::requestCredentials(&session, p.kluster, &fetcher, post);
            return;
        }
        // The plan, made once: printed, and sent as it stands once the kluster read again gives the same.
        RepairChoice choice;
        choice.findings = findingIds;
        choice.allRoutes = allRoutes;
        choice.protectedKluster = parser.isSet(QStringLiteral("protected"));
        const auto proposal = std::make_shared<const RepairProposal>(
            p.kluster, std::make_shared<const KlusterFetch>(fetch), diagnosis, choice);
        const QList<const Finding *> &chosen = proposal->chosen();
        bool refusedAbsent = false;
        for (const QString &id : proposal->absent()) {
            // What a kluster left behind, asked for by id: why it is not one, where its object is there.
            Refusal reason = Refusal::None;
            QString detail;
            if (DebrisFindings::whyNot(fetch.state, id, &reason, &detail) && reason != Refusal::None) {
                out << "Refused: " << printable(id) << ": " << refusalName(reason) << ": "
                    << printable(detail) << Qt::endl;
                refusedAbsent = true;
            } else if (!detail.isEmpty()) {
                out << "No finding " << printable(id) << " now (" << printable(detail)
                    << "): nothing to repair." << Qt::endl;
            } else {
                out << "No finding or incident " << printable(id) << " in kluster " << p.kluster
                    << " now: nothing to repair." << Qt::endl;
            }
        }
        if (refusedAbsent && chosen.isEmpty()) {
            QCoreApplication::exit(2);
            return;
        }
        if (!proposal->noRepair()
                 .isEmpty()) { // asked for a repair that cannot be made: refused, never "nothing to do"
            for (const QString &why : proposal->noRepair())
                out << "Refused: " << printable(why) << Qt::endl;
            if (chosen.isEmpty()) {
                QCoreApplication::exit(2);
                return;
            }
        }
        if (chosen.isEmpty()) {
            if (allRoutes && proposal->absent().isEmpty())
                out << "No route finding in kluster " << p.kluster << ": nothing to repair." << Qt::endl;
            for (const SourceError &e : fetch.errors)
                out << "  (" << e.toString() << ")" << Qt::endl;
            QCoreApplication::exit(fetch.errors.isEmpty() ? 0 : CliOptions::ExitUnknown);
            return;
        }
        // A named override lets only its own reason through.
        overridden = override;
        for (const RepairGate::Decision &d : proposal->gate().decisions()) {
            if (d.verdict == RepairGate::Verdict::NeedsOverride && !overrideReason.isEmpty()
                && refusalName(d.reason) != overrideReason)
                overridden = false;
        }
        const QStringList refusals = printDecisions(out, *proposal, overridden);
        // What these credentials may not send, as the commands for someone who may (diagnosis.md §8).
        ManualRepairs::handOver(out, *proposal, p.cloud->name);
        for (const SourceError &e : fetch.errors)
            out << "Note: " << e.toString() << "\n";
        out.flush();
        const QStringList chosenIds = proposal->chosenIds();
        const QString title = proposal->summary();
        const auto proceed = [&, refusals, proposal, chosenIds](const QList<SilenceRequest> &planned) {
            if (!parser.isSet(QStringLiteral("yes"))) {
                if (!refusals.isEmpty()) {
                    out << (proposal->chosen().size() == 1 && refusals.size() == 1
                            ? "This plan would be refused: "
                            : "Would be refused: ")
                        << (proposal->chosen().size() == 1 ? refusals.first().section(QStringLiteral(": "), 1)
                                                           : refusals.join(QStringLiteral("; ")))
                        << Qt::endl;
                    QCoreApplication::exit(2);
                    return;
                }
                out << "Dry run: nothing was sent. Add --yes to send this plan." << Qt::endl;
                QCoreApplication::exit(0);
                return;
            }
            // A teardown of a router's devices is confirmed by its name, as the console asks it typed.
            if (proposal->teardown()
                && parser.value(QStringLiteral("router")) != proposal->teardown()->routerName) {
                QCoreApplication::exit(CliOptions::fail(command,
                    QStringLiteral(
                        "this plan tears router %1's configuration on its devices down: every kluster "
                        "on it loses its routes until the sync ends. Nothing was sent: give --router "
                        "%1 to confirm")
                        .arg(proposal->teardown()->routerName)));
                return;
            }
            for (const QString &r : refusals)
                QTextStream(Terminal::err()) << "flightdeck-cli repair: not sent: " << r << Qt::endl;
            worst = refusals.isEmpty() ? 0 : 2;
            RepairSession::Options runOptions;
            runOptions.diagnosis = *options;
            runOptions.override = overridden;
            runOptions.kube = p.kube;
            runOptions.stopOnFailure = true; // what follows a failed change was planned from the same data
            run = std::make_unique<RepairSession>(&session, proposal, runOptions);
            QObject::connect(
                run.get(), &RepairSession::stepStarted, run.get(), [&out](const RepairGate::Step &step) {
                    out << "Sending: " << printable(step.plan.title) << Qt::endl;
                });
            QObject::connect(run.get(), &RepairSession::progress, run.get(),
                [&out](const QString &, const QString &m) { out << "  ... " << printable(m) << Qt::endl; });
            QObject::connect(run.get(), &RepairSession::stepFinished, run.get(),
                [&](const RepairGate::Step &, const RepairExecutor::Outcome &o) {
                    anySent = anySent || !o.requests.isEmpty();
                    printOutcome(out, o);
                    worst = qMax(worst, o.auditError.isEmpty() ? exitStatusOf(o.result) : 3);
                });
            // Read again just before sending, the kluster gives another plan: nothing is sent; the new plan
            // is printed, to be confirmed by running the command again.
            QObject::connect(run.get(), &RepairSession::replanned, run.get(),
                [&](const std::shared_ptr<const RepairProposal> &fresh, const QStringList &differences) {
                    out << "\nNot sent: the plan changed since the kluster was read ("
                        << printable(differences.join(QStringLiteral("; "))) << "). The plan now:\n";
                    printDecisions(out, *fresh, overridden);
                    out << "Nothing was sent. Run the command again to send the plan as it is now."
                        << Qt::endl;
                    QTextStream(Terminal::err())
                        << "flightdeck-cli repair: not sent: the plan changed before it was sent" << Qt::endl;
                    worst = qMax(worst, 2);
                });
            QObject::connect(run.get(), &RepairSession::finished, run.get(), [&] {
                if (silences.silenceIds().isEmpty()) {
                    QCoreApplication::exit(worst);
                    return;
                }
                QObject::connect(
                    &silences, &RepairSilences::finished, &silences, [&](const QString &summary) {
                        out << "Silences: " << printable(summary) << Qt::endl;
                        QCoreApplication::exit(worst);
                    });
                silences.finish(worst == 0 || !anySent); // nothing sent: nothing to keep them for
            });
            if (planned.isEmpty() || !silence) {
                run->start();
                return;
            }
            // The silences first, each recorded; one that cannot be made never holds the repair back.
            QObject::connect(&silences, &RepairSilences::created, &silences,
                [&](const QStringList &ids, const QStringList &errors) {
                    for (const QString &id : ids)
                        out << "Silenced: " << printable(id) << Qt::endl;
                    for (const QString &e : errors)
                        QTextStream(Terminal::err()) << "flightdeck-cli repair: " << e << Qt::endl;
                    run->start();
                });
            silences.create(planned, chosenIds);
        };
        if (!alertmanager->isSet()) {
            proceed({});
            return;
        }
        // The kluster's alerts, matched to its findings: those of the chosen findings are shown, and silenced
        // with --silence.
        alertmanagerClient.fetchKlusterAlerts(p.kluster, fetch.state.kluster.projectId, &fetcher,
            [&, proceed, fetch, diagnosis, chosenIds, title](KlusterAlerts alerts) {
                if (!alerts.known) {
                    QTextStream(Terminal::err())
                        << "flightdeck-cli repair: alerts not read: " << alerts.error << Qt::endl;
                    proceed({});
                    return;
                }
                Alerts::matchFindings(alerts.alerts, fetch.state, *diagnosis);
                const QList<SilenceRequest> planned
                    = RepairSilences::plan(alerts.alerts, chosenIds, title, silenceContext.user,
                        QDateTime::currentDateTimeUtc(), silenceMinutes, alertmanager->klusterLabels);
                if (planned.isEmpty()) {
                    out << "Alerts of these findings: none firing (unsilenced) in "
                        << alertmanager->displayUrl() << Qt::endl;
                    proceed(planned);
                    return;
                }
                // Each silence with what else it would catch now, asked of Alertmanager before anything is
                // made.
                silences.preview(planned, [&, planned, proceed](const QStringList &caught, int) {
                    for (qsizetype i = 0; i < planned.size(); ++i) {
                        const SilenceRequest &s = planned.at(i);
                        out << (silence ? "Silence" : "Would silence (with --silence)") << ": "
                            << printable(s.matchersText()) << " until " << s.endsAt.toString(Qt::ISODate)
                            << ", by " << printable(s.createdBy) << ": " << printable(s.comment) << "\n  "
                            << printable(caught.value(i)) << Qt::endl;
                    }
                    proceed(planned);
                });
            });
    });
    // Past the deadline, a repair in flight is given up through its executor: the audit record is completed
    // (its requests so far, "gave up") before the command ends.
    CliOptions::armDeadline(p.deadlineSeconds, &fetcher, [&, command] {
        const QString why
            = QStringLiteral("gave up: not finished within %1 s (--deadline)").arg(p.deadlineSeconds);
        if (!run || !run->abandon(why))
            QCoreApplication::exit(CliOptions::fail(command, why));
    });
    fetcher.start();
    return QCoreApplication::exec();
}
