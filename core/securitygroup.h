#pragma once

#include <QList>
#include <QString>
#include <optional>

struct SecurityGroupRule
{
    QString id;
    QString securityGroupId;
    QString direction; // ingress or egress
    QString ethertype; // IPv4 or IPv6
    std::optional<QString> protocol; // name or number; nullopt means any
    std::optional<int> portRangeMin;
    std::optional<int> portRangeMax;
    std::optional<QString> remoteIpPrefix;
    std::optional<QString> remoteGroupId;
    std::optional<QString> remoteAddressGroupId;
};

struct SecurityGroup
{
    QString id;
    QString name;
    QList<SecurityGroupRule> rules;
};
