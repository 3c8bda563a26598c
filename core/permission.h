#pragma once

#include "core/permissionverdict.h"
#include "core/policyrule.h"
#include "core/repairplan.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

// What these credentials may do (diagnosis.md §8): each request Flightdeck would send judged before it is
// sent, from the token's roles and scope and an application credential's access rules, against a policy
// profile of the calls Flightdeck sends and the roles the clouds' default policies require
// (docs/wire-formats.md, "What a token may do"). Nothing here sends anything.
// An application credential's access rule (Keystone `access_rules`): the service type, the method, and a
// path pattern in which `*` and `{name}` stand for one segment and `**` for anything, matched whole against
// the request's path as the service receives it (its endpoint's path included).
struct AccessRule
{
    QString service;
    QString method;
    QString path;

    bool matches(const QString &serviceType, const QString &httpMethod, const QString &fullPath) const;
};

// Who the token is and what it carries (`GET /v3/auth/tokens`'s `token`; never the token itself).
struct TokenIdentity
{
    QString userId;
    QString userName;
    QString projectId; // empty: not project-scoped
    QString projectName;
    bool systemScope = false; // `system: {"all": true}`
    QStringList roles; // names, as Keystone lists them (implied roles included)
    QString applicationCredential; // its name; empty: a password token
    // The application credential's access rules: absent, it is unrestricted by them.
    std::optional<QList<AccessRule>> accessRules;

    // Whether the roles include `role` or one that implies it (Keystone's defaults: admin implies member,
    // member implies reader).
    bool hasRole(const QString &role) const;
    // "demo · member, reader · project flightdeck-demo" (the console's header).
    QString summary() const;

    // The body of `GET`/`POST /v3/auth/tokens`: {"token": {…}}. Throws ParseError naming `source`.
    static TokenIdentity parse(const QString &source, const QByteArray &body);
};

// A policy file's rules (oslo.policy's YAML or JSON: policy name → rule) for one service or for every one:
// what a cloud's operators changed from the defaults (services/local/policyfile.h reads one).
struct PolicyOverride
{
    QString service; // the catalog type it applies to ("network"); empty: every service
    QString source; // the file, as named
    QHash<QString, PolicyRule> rules;
};

// The calls Flightdeck sends, each with the policy that guards it and the role the cloud's defaults require.
class PolicyProfile
{
public:
    struct Rule
    {
        QString service; // catalog type
        QString method;
        QString pathPattern; // a regular expression over the path relative to the service's endpoint
        QString actionKey; // a server action's body key ("os-start"); empty: any body
        QString policy; // the policy's name ("update_router", "os_compute_api:servers:delete")
        QStringList anyRole; // one of them suffices (hasRole); "a+b": both together
        QString what; // "change the project's routers"
    };

    // The defaults of Neutron, Nova and the ASR driver as read from their sources (wire-formats.md).
    static const PolicyProfile &defaults();
    // The defaults, with the rules of `overrides` in place of theirs where a file names a policy (a file of
    // the request's service before one of every service).
    static PolicyProfile withOverrides(QList<PolicyOverride> overrides);
    const QList<Rule> &rules() const { return m_rules; }
    const QList<PolicyOverride> &overrides() const { return m_overrides; }

    // The request judged for `identity`; `endpointPath` is the path of the service's endpoint ("/v2.1"),
    // what access rules are matched with. A Kubernetes request is judged by the API server itself
    // (SelfSubjectAccessReview): unknown here.
    PermissionVerdict judge(
        const PlannedRequest &request, const TokenIdentity &identity, const QString &endpointPath = {}) const;
    const Rule *ruleFor(const PlannedRequest &request) const;
    // What a refusal is remembered by: the policy's name where one is known ("update_router"), else the
    // method, service and path.
    QString keyOf(const PlannedRequest &request) const;

private:
    // The file that writes `policy` for `service`, or null.
    const PolicyOverride *overrideFor(const QString &service, const QString &policy) const;
    PermissionVerdict judgeWritten(
        const Rule &rule, const PolicyOverride &file, const TokenIdentity &identity) const;

    QList<Rule> m_rules;
    QList<QRegularExpression> m_paths; // each rule's pathPattern, whole, compiled once
    QList<PolicyOverride> m_overrides;
};

// Who acts, as one session knows it (shared by every kluster it reads): the token read, the paths of the
// endpoints it uses, what a service refused this session that the profile did not expect, and what the
// klusters' API servers answered (SelfSubjectAccessReview).
struct Credentials
{
    TokenIdentity identity;
    // Catalog type → the URL of the endpoint used ("https://nova.example:8774/v2.1"): what access rules are
    // matched with (its path), and what a guide's curl commands name.
    QHash<QString, QString> endpoints;
    // A 403 the preflight did not expect, by PolicyProfile::keyOf, with what the service said: denied for the
    // rest of the session.
    QHash<QString, QString> refusedThisSession;
    // The Kubernetes writes as the kluster's API server judged them, by "verb resource" ("delete nodes").
    QHash<QString, PermissionVerdict> kubernetes;
    std::shared_ptr<const PolicyProfile> profile; // null: PolicyProfile::defaults()

    const PolicyProfile &policy() const { return profile ? *profile : PolicyProfile::defaults(); }
    PermissionVerdict judge(const PlannedRequest &request) const;

    // Each request of `plan` judged (`credentials` null: the token was not read, each unknown); a denied one
    // refuses the plan with NotPermitted, naming the request and what it needs, unless it refuses itself
    // already.
    static void judgePlan(RepairPlan &plan, const Credentials *credentials);
    // The token's body as snapshot-format.md's token.json holds it (`GET /v3/auth/tokens`: user, scope,
    // roles, the application credential and its access rules, a catalog of the endpoints used); read back by
    // fromTokenJson (a catalog's public endpoints where there are several). Never the token itself.
    QJsonObject toTokenJson() const;
    static Credentials fromTokenJson(const QString &source, const QByteArray &body);
    // "verb resource" of a Kubernetes request ("delete nodes", "create events"); empty when not one.
    static QString kubernetesAction(const PlannedRequest &request);
};
