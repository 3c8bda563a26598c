#include "services/openstack/bootevidencereader.h"

#include "core/json/jsonreader.h"
#include "services/http/httpclient.h"
#include "services/openstack/keystonesession.h"

#include <QPointer>
#include <memory>

namespace {

// Why a part was not read, in the words an on-call engineer acts on.
QString why(const ApiResponse &r, const Error &error, const char *what)
{
    QString reason = error.toString();
    if (r.status == 409)
        return QStringLiteral("Nova has no %1 for it yet: %2").arg(QLatin1String(what), reason);
    if (r.status == 403)
        return QStringLiteral("these credentials may not read its %1: %2").arg(QLatin1String(what), reason);
    if (r.status == 501)
        return QStringLiteral("this cloud's hypervisor driver keeps no %1: %2")
            .arg(QLatin1String(what), reason);
    return reason;
}

} // namespace

void BootEvidenceReader::read(KeystoneSession *session, const BootEvidences::Server &server, QObject *context,
    const std::function<void(const BootEvidence &)> &done)
{
    auto evidence = std::make_shared<BootEvidence>();
    evidence->serverId = server.id;
    evidence->serverName = server.name;
    auto pending = std::make_shared<int>(2);
    const auto partDone = [evidence, pending, done] {
        if (--*pending > 0)
            return;
        evidence->readAt = QDateTime::currentDateTimeUtc();
        done(*evidence);
    };
    const QString base
        = QStringLiteral("/servers/%1").arg(QString::fromLatin1(QUrl::toPercentEncoding(server.id)));

    HttpCall *console = session->send(
        QStringLiteral("compute"), "POST", base + QStringLiteral("/action"), BootEvidences::consoleRequest());
    QObject::connect(console, &HttpCall::finished, context, [evidence, partDone](const ApiResponse &r) {
        QStringList lines;
        const Error error = parseAnswer(r.error, [&lines, &r] {
            lines = BootEvidences::parseConsoleOutput(QStringLiteral("the console log"), r.body);
        });
        evidence->consoleRead = !error.isError();
        if (evidence->consoleRead)
            evidence->consoleLines = lines;
        else
            evidence->consoleError = why(r, error, "console log");
        partDone();
    });

    HttpCall *actions
        = session->send(QStringLiteral("compute"), "GET", base + QStringLiteral("/os-instance-actions"));
    QObject::connect(actions, &HttpCall::finished, context, [evidence, partDone](const ApiResponse &r) {
        QList<InstanceAction> list;
        const Error error = parseAnswer(r.error, [&list, &r] {
            list = BootEvidences::parseInstanceActions(QStringLiteral("the instance actions"), r.body);
        });
        evidence->actionsRead = !error.isError();
        if (evidence->actionsRead)
            evidence->actions = list;
        else
            evidence->actionsError = why(r, error, "actions");
        partDone();
    });
}
