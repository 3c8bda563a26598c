#include "services/repair/eventwriter.h"

#include "services/http/httpclient.h"
#include "services/kubernetes/kubernetesclient.h"

#include <QCoreApplication>
#include <QHostInfo>
#include <QJsonDocument>

HttpCall *RepairEventWriter::write(KubernetesClient *kube, const RepairEvent &event)
{
    return kube->send("POST", QStringLiteral("/apis/events.k8s.io/v1/namespaces/default/events"),
        QJsonDocument(event.toEvent()).toJson(QJsonDocument::Compact), QByteArrayLiteral("application/json"));
}

QString RepairEventWriter::outcome(const ApiResponse &answer)
{
    if (!answer.error.isError() || answer.status == 409)
        return QStringLiteral(" written");
    return QStringLiteral(" not written: ") + answer.error.toString();
}

QString RepairEventWriter::instance()
{
    return RepairEvent::instanceName(QHostInfo::localHostName(),
        QStringLiteral("%1-%2")
            .arg(QCoreApplication::applicationName())
            .arg(QCoreApplication::applicationPid()));
}
