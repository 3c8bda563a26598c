#include "app/cli/livecommands.h"

#include "app/cli/clioptions.h"
#include "app/cli/terminal.h"
#include "core/checkreport.h"
#include "core/diagnosis.h"
#include "core/printable.h"
#include "core/repairgate.h"
#include "services/auditlog.h"
#include "services/cloudconfig.h"
#include "services/historystore.h"
#include "services/httpclient.h"
#include "services/keystonesession.h"
#include "services/klusterfetcher.h"
#include "services/repairexecutor.h"
#include "services/secretstore.h"
#include "services/snapshotwriter.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace {

struct Parsed
{
    std::optional<CloudConfig> cloud;
    std::optional<KubeTarget> kube;
    QString kluster;
    int deadlineSeconds = 600;
};

// Parses the shared cloud options; returns -1 to go on, else the exit status.
int parse(QCommandLineParser &parser, const QStringList &arguments, const QString &command,
    const QString &description, bool klusterRequired, Parsed *out)
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    CliOptions::addCloud(parser, klusterRequired);
    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText().replace(QStringLiteral("flightdeck-cli [options]"),
            QStringLiteral("flightdeck-cli ") + command + QStringLiteral(" [options]"));
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return CliOptions::fail(
            command, QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().first()));
    QString error;
    if (klusterRequired) {
        if (!parser.isSet(QStringLiteral("kluster")))
            return CliOptions::fail(command, QStringLiteral("give --kluster NAME (see --help)"));
        out->kluster = parser.value(QStringLiteral("kluster"));
    }
    out->cloud = CloudConfigLoader::load(parser.value(QStringLiteral("cloud")), &error);
    if (!out->cloud || !CliOptions::completeSecret(*out->cloud, &error))
        return CliOptions::fail(command, error);
    bool given = false;
    out->kube = CliOptions::readKubeTarget(parser, &error, &given);
    if (given && !out->kube)
        return CliOptions::fail(command, error);
    const std::optional<int> deadline = CliOptions::readDeadline(parser, &error);
    if (!deadline)
        return CliOptions::fail(command, error);
    out->deadlineSeconds = *deadline;
    return -1;
}

// The command's deadline: past it, the command says so and ends with 3.
void armDeadline(const Parsed &p, const QString &command, QObject *context)
{
    CliOptions::armDeadline(p.deadlineSeconds, context, [command, seconds = p.deadlineSeconds] {
        QCoreApplication::exit(CliOptions::fail(
            command, QStringLiteral("gave up: not finished within %1 s (--deadline)").arg(seconds)));
    });
}

} // namespace

int runSnapshotCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("snapshot");
    QCommandLineParser parser;
    parser.addOption(
        { QStringLiteral("out"), QStringLiteral("The snapshot folder to write."), QStringLiteral("dir") });
    parser.addOption({ QStringLiteral("route-limit"),
        QStringLiteral("Record the router's route limit in capture.json."), QStringLiteral("count") });
    Parsed p;
    if (const int status = parse(parser, arguments, command,
            QStringLiteral("Fetch one kluster and write it as a snapshot folder (snapshot-format): the "
                           "unmodified API bodies, pages merged; never a token, password or key."),
            true, &p);
        status >= 0)
        return status;
    if (!parser.isSet(QStringLiteral("out")))
        return CliOptions::fail(command, QStringLiteral("give --out DIR"));
    HttpClient client;
    KeystoneSession session(&client, *p.cloud);
    KlusterFetcher fetcher(&session, p.kluster);
    if (p.kube)
        fetcher.setKubeTarget(*p.kube);
    if (parser.isSet(QStringLiteral("route-limit"))) {
        bool ok = false;
        const int limit = parser.value(QStringLiteral("route-limit")).toInt(&ok);
        if (!ok || limit <= 0)
            return CliOptions::fail(command,
                QStringLiteral("--route-limit: \"%1\" is not a positive count")
                    .arg(parser.value(QStringLiteral("route-limit"))));
        fetcher.setRouteLimit(limit);
    }
    int status = CliOptions::ExitUnknown;
    QObject::connect(&fetcher, &KlusterFetcher::finished, &fetcher, [&](const KlusterFetch &fetch) {
        QString error;
        if (!SnapshotWriter::write(parser.value(QStringLiteral("out")), fetch, &error)) {
            status = CliOptions::fail(command, error);
        } else {
            QTextStream(Terminal::out())
                << "snapshot of " << p.kluster << " written to " << parser.value(QStringLiteral("out"))
                << " (" << fetch.requests << " requests)" << Qt::endl;
            status = 0;
        }
        QCoreApplication::exit(status);
    });
    armDeadline(p, command, &fetcher);
    fetcher.start();
    QCoreApplication::exec();
    return status;
}

int runKlustersCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("klusters");
    QCommandLineParser parser;
    Parsed p;
    if (const int status = parse(parser, arguments, command,
            QStringLiteral("List the klusters of the cloud's project (the Kubernikus API)."), false, &p);
        status >= 0)
        return status;
    HttpClient client;
    KeystoneSession session(&client, *p.cloud);
    int status = CliOptions::ExitUnknown;
    HttpCall *call = session.send(QStringLiteral("kubernikus"), "GET", QStringLiteral("/api/v1/clusters"));
    QObject::connect(call, &HttpCall::finished, &session, [&](const ApiResponse &r) {
        const QJsonDocument doc = QJsonDocument::fromJson(r.body);
        if (r.error.isError()) {
            status = CliOptions::fail(command, r.error.toString());
        } else if (!doc.isArray()) {
            Error e;
            e.kind = Error::Kind::Malformed;
            e.service = QStringLiteral("kubernikus");
            e.method = QStringLiteral("GET");
            e.path = QStringLiteral("/api/v1/clusters");
            e.status = r.status;
            const QString message = r.serverMessage();
            e.detail = QStringLiteral("expected a JSON list of klusters")
                + (message.isEmpty() ? QString() : QStringLiteral(": ") + message);
            status = CliOptions::fail(command, e.toString());
        } else {
            const QJsonArray list = doc.array();
            QTextStream out(Terminal::out());
            out << QStringLiteral("%1 %2 %3 %4\n")
                       .arg(QStringLiteral("NAME"), -20)
                       .arg(QStringLiteral("PHASE"), -12)
                       .arg(QStringLiteral("POD NETWORK"), -18)
                       .arg(QStringLiteral("NODES"));
            for (const QJsonValue v : list) {
                const QJsonObject k = v.toObject();
                const QJsonObject spec = k.value(QStringLiteral("spec")).toObject();
                int size = 0;
                for (const QJsonValue pool : spec.value(QStringLiteral("nodePools")).toArray())
                    size += pool.toObject().value(QStringLiteral("size")).toInt();
                out << QStringLiteral("%1 %2 %3 %4\n")
                           .arg(k.value(QStringLiteral("name")).toString(), -20)
                           .arg(k.value(QStringLiteral("status"))
                                    .toObject()
                                    .value(QStringLiteral("phase"))
                                    .toString(),
                               -12)
                           .arg(spec.value(QStringLiteral("clusterCIDR")).toString(), -18)
                           .arg(size);
            }
            status = 0;
        }
        QCoreApplication::exit(status);
    });
    armDeadline(p, command, &session);
    QCoreApplication::exec();
    return status;
}

static void printPlan(QTextStream &out, const RepairPlan &plan)
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
static void printRouteChange(QTextStream &out, const RepairGate &gate)
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
static int exitStatusOf(RepairExecutor::Outcome::Result result)
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
        return 3;
    }
    return 3;
}

int runRepairCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("repair");
    QCommandLineParser parser;
    parser.addOption({ QStringLiteral("finding"),
        QStringLiteral("A finding to repair, by id (<kind>:<subject>, as check prints it). Give it once per "
                       "finding to repair several; their route changes are sent as one change."),
        QStringLiteral("id") });
    parser.addOption({ QStringLiteral("all-routes"),
        QStringLiteral("Repair every route finding of the kluster's router that has a repair, as one change "
                       "of the router.") });
    parser.addOption(
        { QStringLiteral("yes"), QStringLiteral("Send the plan. Without it, the plan is only printed.") });
    parser.addOption({ QStringLiteral("override"),
        QStringLiteral("Delete this one instance or node although the remediation budget refuses "
                       "(TooManyUnhealthy); only with a single --finding.") });
    CliOptions::addDiagnosis(parser);
    Parsed p;
    if (const int status = parse(parser, arguments, command,
            QStringLiteral("Repair findings: fetch the kluster, print the plan (the exact requests), "
                           "send it only with --yes, verify by fetching again, and append the audit log.\n"
                           "Exit status: 0 fixed (or the plan printed), 1 sent but still there, 2 refused, "
                           "3 failed or could not run (with several findings: the worst of them)."),
            true, &p);
        status >= 0)
        return status;
    QString error;
    const std::optional<DiagnosisOptions> options = CliOptions::readDiagnosis(parser, &error);
    if (!options)
        return CliOptions::fail(command, error);
    const bool allRoutes = parser.isSet(QStringLiteral("all-routes"));
    const QStringList findingIds = parser.values(QStringLiteral("finding"));
    if (findingIds.isEmpty() && !allRoutes)
        return CliOptions::fail(command, QStringLiteral("give --finding ID (from check), or --all-routes"));
    const bool override = parser.isSet(QStringLiteral("override"));
    if (override && (findingIds.size() != 1 || allRoutes))
        return CliOptions::fail(command,
            QStringLiteral("--override lets one deletion through, alone: give exactly one --finding"));

    HttpClient client;
    KeystoneSession session(&client, *p.cloud);
    KlusterFetcher fetcher(&session, p.kluster);
    if (p.kube)
        fetcher.setKubeTarget(*p.kube);
    if (options->routeLimitExplicit)
        fetcher.setRouteLimit(options->routeLimit);
    int status = CliOptions::ExitUnknown;
    QTextStream out(Terminal::out());
    std::unique_ptr<RepairExecutor> executor;
    KlusterState fetched;
    std::shared_ptr<const Diagnosis> diagnosis;
    QList<RepairGate::Step> steps;
    int worst = 0;
    std::function<void()> sendNext = [&] {
        if (steps.isEmpty()) {
            QCoreApplication::exit(worst);
            return;
        }
        const RepairGate::Step step = steps.takeFirst();
        QList<Finding> findings;
        for (const QString &id : step.findingIds)
            findings << *diagnosis->find(id);
        executor
            = std::make_unique<RepairExecutor>(&session, p.kluster, fetched, findings, step.plan, *options);
        if (p.kube)
            executor->setKubeTarget(*p.kube);
        executor->setOverride(override);
        out << "Sending: " << printable(step.plan.title) << Qt::endl;
        QObject::connect(executor.get(), &RepairExecutor::progress, executor.get(),
            [&out](const QString &m) { out << "  ... " << printable(m) << Qt::endl; });
        QObject::connect(
            executor.get(), &RepairExecutor::finished, executor.get(), [&](const RepairExecutor::Outcome &o) {
                for (const QJsonValue r : o.requests) {
                    const QJsonObject req = r.toObject();
                    out << "  " << req.value(QStringLiteral("method")).toString() << " "
                        << printable(req.value(QStringLiteral("path")).toString()) << " -> "
                        << req.value(QStringLiteral("status")).toInt() << " "
                        << printable(req.value(QStringLiteral("outcome")).toString()) << "\n";
                }
                out << "Result: " << RepairExecutor::Outcome::resultName(o.result) << ": "
                    << printable(o.message) << Qt::endl;
                int mine = exitStatusOf(o.result);
                if (!o.auditError.isEmpty()) {
                    QTextStream(Terminal::err())
                        << "flightdeck-cli repair: the audit record could not be written: " << o.auditError
                        << Qt::endl;
                    mine = 3;
                }
                if (o.result == RepairExecutor::Outcome::Result::Refused)
                    QTextStream(Terminal::err())
                        << "flightdeck-cli repair: refused: " << o.message << Qt::endl;
                else if (exitStatusOf(o.result) == 3)
                    QTextStream(Terminal::err()) << "flightdeck-cli repair: " << o.message << Qt::endl;
                worst = qMax(worst, mine);
                // A failed or overtaken change ends the run: what follows was planned from the same data.
                if (mine == 3) {
                    QCoreApplication::exit(worst);
                    return;
                }
                QMetaObject::invokeMethod(
                    qApp, [&] { sendNext(); }, Qt::QueuedConnection);
            });
        executor->start();
    };
    QObject::connect(&fetcher, &KlusterFetcher::finished, &fetcher, [&](const KlusterFetch &fetch) {
        if (!fetch.state.klusterSource.known) {
            QCoreApplication::exit(CliOptions::fail(command, SourceError::joined(fetch.errors)));
            return;
        }
        fetched = fetch.state;
        diagnosis = std::make_shared<const Diagnosis>(Diagnosis::run(fetch.state, *options));
        QList<const Finding *> chosen;
        QStringList absent;
        for (const QString &id : findingIds) {
            if (const Finding *f = diagnosis->find(id); f && !chosen.contains(f))
                chosen << f;
            else if (!f)
                absent << id;
        }
        if (allRoutes) {
            for (const Finding &f : diagnosis->findings) {
                if (findingFamily(f.kind) == FindingFamily::Route && f.kind != FindingKind::RouteLimit
                    && !chosen.contains(&f))
                    chosen << &f;
            }
        }
        for (const QString &id : absent)
            out << "No finding " << id << " in kluster " << p.kluster << " now: nothing to repair."
                << Qt::endl;
        if (chosen.isEmpty()) {
            if (allRoutes && absent.isEmpty())
                out << "No route finding in kluster " << p.kluster << ": nothing to repair." << Qt::endl;
            for (const SourceError &e : fetch.errors)
                out << "  (" << e.toString() << ")" << Qt::endl;
            QCoreApplication::exit(fetch.errors.isEmpty() ? 0 : CliOptions::ExitUnknown);
            return;
        }
        const RepairGate gate(chosen, diagnosis->budget);
        QStringList refusals;
        for (const RepairGate::Decision &d : gate.decisions()) {
            const Finding &finding = *d.finding;
            out << "[" << severityName(finding.severity).toUpper() << "] " << printable(finding.id())
                << "\n  " << printable(finding.message()) << "\n";
            if (d.verdict == RepairGate::Verdict::NoRepair) {
                out << "This finding has no repair of its own." << Qt::endl;
                refusals << finding.id() + QStringLiteral(": it has no repair of its own");
                continue;
            }
            if (d.combined) {
                out << "Repaired by the one route change below.\n";
            } else {
                printPlan(out, *d.plan);
            }
            if (!d.mayBeSent(override))
                refusals << finding.id() + QStringLiteral(": ")
                        + d.why(QStringLiteral("--override deletes this one instance or node anyway"));
        }
        if (const std::optional<RepairPlan> &change = gate.routeChange()) {
            out << "One change of the router for " << gate.routeChangeFindings().size() << " findings ("
                << printable(gate.routeChangeFindings().join(QStringLiteral(", "))) << "):\n";
            printPlan(out, *change);
            printRouteChange(out, gate);
        }
        for (const SourceError &e : fetch.errors)
            out << "Note: " << e.toString() << "\n";
        out.flush();
        if (!parser.isSet(QStringLiteral("yes"))) {
            if (!refusals.isEmpty()) {
                out << (chosen.size() == 1 && refusals.size() == 1 ? "This plan would be refused: "
                                                                   : "Would be refused: ")
                    << (chosen.size() == 1 ? refusals.first().section(QStringLiteral(": "), 1)
                                           : refusals.join(QStringLiteral("; ")))
                    << Qt::endl;
                QCoreApplication::exit(2);
                return;
            }
            out << "Dry run: nothing was sent. Add --yes to send this plan." << Qt::endl;
            QCoreApplication::exit(0);
            return;
        }
        for (const QString &r : std::as_const(refusals))
            QTextStream(Terminal::err()) << "flightdeck-cli repair: not sent: " << r << Qt::endl;
        worst = refusals.isEmpty() ? 0 : 2;
        steps = gate.steps();
        if (steps.isEmpty()) {
            QCoreApplication::exit(worst);
            return;
        }
        sendNext();
    });
    // Past the deadline, a repair in flight is given up through its executor: the audit record is completed
    // (its requests so far, "gave up") before the command ends.
    CliOptions::armDeadline(p.deadlineSeconds, &fetcher, [&, command] {
        const QString why
            = QStringLiteral("gave up: not finished within %1 s (--deadline)").arg(p.deadlineSeconds);
        steps.clear();
        if (executor && executor->isRunning())
            executor->abandon(why);
        else
            QCoreApplication::exit(CliOptions::fail(command, why));
    });
    fetcher.start();
    status = QCoreApplication::exec();
    return status;
}

int runCredentialsCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("credentials");
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Keep a cloud's password or application credential secret in the system keychain "
                       "(service \"flightdeck\"):\n"
                       "  credentials set --cloud NAME      reads the secret from standard input (one line)\n"
                       "  credentials status --cloud NAME   says whether the keychain holds it\n"
                       "  credentials delete --cloud NAME   removes it\n"
                       "Secrets never go to a file."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("set, status or delete"));
    parser.addOption({ QStringLiteral("cloud"),
        QStringLiteral("The cloud of clouds.yaml (default: $OS_CLOUD)."), QStringLiteral("name") });
    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText();
        return 0;
    }
    const QString action = parser.positionalArguments().value(0);
    if (action != QLatin1String("set") && action != QLatin1String("status")
        && action != QLatin1String("delete"))
        return CliOptions::fail(command, QStringLiteral("give set, status or delete (see --help)"));
    QString error;
    const std::optional<CloudConfig> cloud
        = CloudConfigLoader::load(parser.value(QStringLiteral("cloud")), &error);
    if (!cloud)
        return CliOptions::fail(command, error);
    SecretStore store;
    SecretCall *call = nullptr;
    if (action == QLatin1String("set")) {
        QTextStream in(stdin);
        const QString secret = in.readLine();
        if (secret.isEmpty())
            return CliOptions::fail(command, QStringLiteral("no secret on standard input"));
        call = store.write(cloud->secretKey(), secret);
    } else if (action == QLatin1String("delete")) {
        call = store.remove(cloud->secretKey());
    } else {
        call = store.read(cloud->secretKey());
    }
    int status = CliOptions::ExitUnknown;
    QObject::connect(call, &SecretCall::finished, &store, [&](const SecretResult &r) {
        QTextStream out(Terminal::out());
        if (r.inMemoryOnly) {
            status = CliOptions::fail(command,
                QStringLiteral("no keychain is available (%1); nothing was stored: secrets are "
                               "never written to a file")
                    .arg(store.memoryOnlyReason()));
        } else if (action == QLatin1String("status")) {
            out << cloud->secretKey() << ": " << (r.found ? "stored in the keychain" : "not in the keychain")
                << Qt::endl;
            status = r.found ? 0 : 1;
        } else if (!r.ok) {
            status = CliOptions::fail(command, r.error);
        } else {
            out << cloud->secretKey()
                << (action == QLatin1String("set") ? ": stored in the keychain"
                                                   : ": removed from the keychain")
                << Qt::endl;
            status = 0;
        }
        QCoreApplication::exit(status);
    });
    QCoreApplication::exec();
    return status;
}

int runAuditCommand(const QStringList &arguments)
{
    const QString command = QStringLiteral("audit");
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print the audit log of repairs (JSON Lines at %1).").arg(AuditLog::path()));
    parser.addHelpOption();
    parser.addOption(
        { QStringLiteral("format"), QStringLiteral("text (default) or json (the records, one per line)."),
            QStringLiteral("text|json"), QStringLiteral("text") });
    if (!parser.parse(arguments))
        return CliOptions::fail(command, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(Terminal::out()) << parser.helpText();
        return 0;
    }
    QString error;
    const QList<QJsonObject> records = AuditLog::read(&error);
    if (!error.isEmpty())
        CliOptions::fail(command, error);
    const bool json = parser.value(QStringLiteral("format")) == QLatin1String("json");
    // JSON as it is (its writer escapes every control character), the text through the terminal's guard.
    QFile raw;
    if (json)
        raw.open(stdout, QIODevice::WriteOnly);
    QTextStream out(json ? static_cast<QIODevice *>(&raw) : Terminal::out());
    int interruptedCount = 0;
    for (const QJsonObject &r : records) {
        if (parser.value(QStringLiteral("format")) == QLatin1String("json")) {
            out << QJsonDocument(r).toJson(QJsonDocument::Compact) << "\n";
            continue;
        }
        // Every value of a record may have come from the cloud (a router's name, a server's words): printed
        // so that none of it drives the terminal.
        const auto text = [](const QJsonObject &o, const char *key) {
            return printable(o.value(QLatin1String(key)).toString());
        };
        out << text(r, "time") << "  " << text(r, "user") << "@" << text(r, "project") << " ("
            << text(r, "cloud") << ")  " << text(r, "kluster") << "  " << text(r, "finding") << "\n    "
            << text(r, "repair") << "\n";
        const bool interrupted = r.value(QStringLiteral("interrupted")).toBool();
        if (interrupted || !r.contains(QStringLiteral("requests"))) {
            // Only what was about to be sent is known: each request may or may not have reached the cloud.
            for (const QJsonValue v : r.value(QStringLiteral("planned")).toArray()) {
                const QJsonObject q = v.toObject();
                out << "    " << text(q, "method") << " " << text(q, "service") << " " << text(q, "path")
                    << " -> unknown (about to be sent)\n";
            }
        }
        for (const QJsonValue v : r.value(QStringLiteral("requests")).toArray()) {
            const QJsonObject q = v.toObject();
            out << "    " << text(q, "method") << " " << text(q, "service") << " " << text(q, "path")
                << " -> " << q.value(QStringLiteral("status")).toInt() << " " << text(q, "outcome") << "\n";
        }
        out << "    verification: "
            << (interrupted ? QStringLiteral("INTERRUPTED - check the cloud") : text(r, "verification"))
            << " - " << text(r, "message") << "\n";
        if (interrupted)
            ++interruptedCount;
    }
    if (interruptedCount > 0 && parser.value(QStringLiteral("format")) != QLatin1String("json"))
        out << interruptedCount
            << " repair(s) were interrupted before their result was recorded: check the cloud, then "
            << "the kluster again (flightdeck-cli check)." << Qt::endl;
    if (records.isEmpty() && parser.value(QStringLiteral("format")) != QLatin1String("json"))
        out << "No repair has been made yet (" << AuditLog::path() << ")." << Qt::endl;
    return error.isEmpty() ? 0 : 3;
}
