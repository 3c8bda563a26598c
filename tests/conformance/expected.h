#pragma once

#include "tests/conformance/conformance.h"

// What the real Keystone, Neutron and Nova (Debian 12, Zed) answer to the
// conformance checks, as measured on the loopback stack of
// tests/integration/openstack (and in ../shared/docs/real-openstack.md).
// The simulated cloud must give the same answers.
inline QList<Conformance::Observation> expectedObservations()
{
    using O = Conformance::Observation;
    return {
        O { QStringLiteral("keystone: wrong password"), 401, QStringLiteral("Unauthorized"), {}, {} },
        O { QStringLiteral("keystone: password token"), 201, {},
            QStringLiteral("token present, catalog compute,identity,load-balancer,network,volumev3"), {} },
        O { QStringLiteral("neutron: unknown router"), 404, QStringLiteral("RouterNotFound"), {}, {} },
        O { QStringLiteral("neutron: one destination, two nexthops"), 200, {}, QStringLiteral("2 routes"),
            {} },
        O { QStringLiteral("neutron: the order of the routes it answers"), 200, {},
            QStringLiteral("by destination, then nexthop, as text"), {} },
        O { QStringLiteral("neutron: the same route twice in one update"), 400,
            QStringLiteral("HTTPBadRequest"), {}, {} },
        O { QStringLiteral("neutron: nexthop outside the router's subnets"), 400,
            QStringLiteral("InvalidRoutes"), {}, {} },
        O { QStringLiteral("neutron: destination with host bits"), 400, QStringLiteral("HTTPBadRequest"), {},
            {} },
        O { QStringLiteral("neutron: add_extraroutes of a present route"), 200, {}, QStringLiteral("0 more"),
            {} },
        O { QStringLiteral("neutron: remove_extraroutes of an absent route"), 200, {},
            QStringLiteral("0 fewer"), {} },
        O { QStringLiteral("neutron: If-Match with a stale revision"), 412,
            QStringLiteral("RevisionNumberConstraintFailed"), {}, {} },
        O { QStringLiteral("neutron: If-Match with the current revision"), 200, {}, {}, {} },
        O { QStringLiteral("neutron: 30 routes"), 200, {}, {}, {} },
        O { QStringLiteral("neutron: the 31st route by add_extraroutes"), 400,
            QStringLiteral("RoutesExhausted"), {}, {} },
        O { QStringLiteral("neutron: the 31st route by a full update"), 400,
            QStringLiteral("RoutesExhausted"), {}, {} },
        O { QStringLiteral("neutron: create a rule"), 201, {}, QStringLiteral("no port range"), {} },
        O { QStringLiteral("neutron: the same rule again"), 409, QStringLiteral("SecurityGroupRuleExists"),
            {}, {} },
        O { QStringLiteral("neutron: delete the rule"), 204, {}, {}, {} },
        O { QStringLiteral("nova: a page of servers"), 200, {}, QStringLiteral("1 server, next link present"),
            {} },
        O { QStringLiteral("nova: addSecurityGroup of a group the server has"), 400,
            QStringLiteral("badRequest"), {}, {} },
        O { QStringLiteral("nova: addSecurityGroup of an unknown group"), 404, QStringLiteral("itemNotFound"),
            {}, {} },
        O { QStringLiteral("nova: the console's last 2 lines"), 200, {},
            QStringLiteral("a text of at most 2 lines"), {} },
        O { QStringLiteral("nova: a console length that is no number"), 400, QStringLiteral("badRequest"), {},
            {} },
        O { QStringLiteral("nova: a server's actions"), 200, {},
            QStringLiteral("oldest create, its start_time with microseconds and no zone"), {} },
        O { QStringLiteral("nova: removeSecurityGroup"), 202, {},
            QStringLiteral("the server's updated is as it was"), {} },
        O { QStringLiteral("nova: changes-since after a security group was removed"), 200, {},
            QStringLiteral("the server not listed"), {} },
        O { QStringLiteral("neutron: ports changed_since after a security group was removed"), 400,
            QStringLiteral("HTTPBadRequest"), QStringLiteral("its port not listed, fields "), {} },
        O { QStringLiteral("neutron: ports changed_since that is not a date"), 400,
            QStringLiteral("HTTPBadRequest"), {}, {} },
        O { QStringLiteral("nova: changes-since that is not a date"), 400, QStringLiteral("badRequest"), {},
            {} },
        O { QStringLiteral("nova: changes-since an hour ahead"), 200, {}, QStringLiteral("0 servers"), {} },
        O { QStringLiteral("nova: delete a server"), 204, {}, {}, {} },
        O { QStringLiteral("nova: the deleted server"), 404, QStringLiteral("itemNotFound"), {}, {} },
        O { QStringLiteral("nova: changes-since after the delete"), 200, {},
            QStringLiteral("the deleted server listed as DELETED, vm_state deleted"), {} },
        O { QStringLiteral("nova: delete it again"), 404, QStringLiteral("itemNotFound"), {}, {} },
    };
}
