#pragma once

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

struct InstanceAddress
{
    QString network; // the key of `addresses`
    QString address;
    QString type; // OS-EXT-IPS:type: "fixed" or "floating" (empty if not given)
};

// A Nova server as `GET /servers/detail` describes it.
struct Instance
{
    QString id;
    QString name;
    QString status; // ACTIVE, BUILD, ERROR, SHUTOFF, ...
    QString vmState; // OS-EXT-STS:vm_state
    QString taskState; // OS-EXT-STS:task_state (empty when null)
    QString zone; // OS-EXT-AZ:availability_zone
    QDateTime created;
    QList<InstanceAddress> addresses;
    QStringList securityGroups; // names; Nova omits the key when there are none
    QString faultMessage; // fault.message, when Nova recorded one

    // vm_state when Nova shows it; otherwise the status derived from it.
    bool isError() const
    {
        return vmState.isEmpty() ? status == QLatin1String("ERROR") : vmState == QLatin1String("error");
    }
    // A partial record from an unreachable cell (microversion >= 2.69): no name, status UNKNOWN.
    bool isPartial() const { return status == QLatin1String("UNKNOWN") && name.isEmpty(); }
    bool isDeleting() const { return taskState == QLatin1String("deleting"); }
    // Was running and is not: "stopped", "suspended" or "paused" (the vm_state, or read from the status
    // SHUTOFF, SUSPENDED, PAUSED when Nova does not show it); empty otherwise.
    QString stoppedAs() const
    {
        const QString state = !vmState.isEmpty()   ? vmState
            : status == QLatin1String("SHUTOFF")   ? QStringLiteral("stopped")
            : status == QLatin1String("SUSPENDED") ? QStringLiteral("suspended")
            : status == QLatin1String("PAUSED")    ? QStringLiteral("paused")
                                                   : QString();
        return state == QLatin1String("stopped") || state == QLatin1String("suspended")
                || state == QLatin1String("paused")
            ? state
            : QString();
    }
    bool isStopped() const { return !stoppedAs().isEmpty(); }
    // Nova is changing it now (task_state set): a stop or a start under way.
    bool isBusy() const { return !taskState.isEmpty(); }
    bool isActive() const { return status == QLatin1String("ACTIVE"); }
    QString fixedAddress() const
    {
        for (const InstanceAddress &a : addresses) {
            if (a.type != QLatin1String("floating"))
                return a.address;
        }
        return addresses.isEmpty() ? QString() : addresses.first().address;
    }
};
