#!/usr/bin/python3
"""Bootstrap the throwaway OpenStack of `stack up`: one Python process, plain REST.

    bootstrap.py identity   projects, users, roles, services, endpoints (Keystone)
    bootstrap.py resources  quotas (Neutron, and Nova and Cinder), flavors, the fake image
    bootstrap.py hypervisor wait until Nova lists the fake hypervisor as up

Every step is idempotent: it finds before it creates. Settings come from the
environment (set by `stack`): FDOS_COMPUTE (1/0) and FDOS_*_PORT.
Exit status 1 with a message on the first unexpected answer.
"""

import os
import sys
import time

from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

HOST = "127.0.0.1"
PORTS = {name: int(os.environ["FDOS_%s_PORT" % name.upper()])
         for name in ("keystone", "neutron", "nova", "placement", "glance",
                      "cinder", "octavia")}
COMPUTE = os.environ.get("FDOS_COMPUTE", "0") == "1"
REGION = "RegionOne"
KEYSTONE = "http://%s:%d" % (HOST, PORTS["keystone"])
NEUTRON = "http://%s:%d" % (HOST, PORTS["neutron"])
NOVA = "http://%s:%d" % (HOST, PORTS["nova"])
GLANCE = "http://%s:%d" % (HOST, PORTS["glance"])
CINDER = "http://%s:%d" % (HOST, PORTS["cinder"])
OCTAVIA = "http://%s:%d" % (HOST, PORTS["octavia"])

ADMIN_PASSWORD = "admin-pass"
MEMBER_PASSWORD = "member-pass"
READER_PASSWORD = "reader-pass"
SERVICE_PASSWORD = os.environ.get("FDOS_SERVICE_PASSWORD", "service-pass")
SERVICE_USERS = ["neutron", "octavia"] + (["nova", "placement", "glance", "cinder"]
                                          if COMPUTE else [])

NEUTRON_QUOTA = {"network": 100, "subnet": 100, "port": 1000, "router": 50,
                 "security_group": 100, "security_group_rule": 1000,
                 "floatingip": 50}
CINDER_QUOTA = {"volumes": 100, "gigabytes": 1000, "snapshots": 100}
NOVA_QUOTA = {"instances": 100, "cores": 200, "ram": 200 * 1024,
              "key_pairs": 100, "server_groups": 50, "server_group_members": 100}
FLAVORS = [  # name, id, vcpus, ram MiB, disk GiB
    ("m1.tiny", "1", 1, 128, 1),
    ("m1.small", "2", 1, 512, 5),
    ("m1.medium", "3", 2, 2048, 10),
]
IMAGE_NAME = "cirros-fake"
IMAGE_SIZE = 1024 * 1024


def die(msg):
    print("bootstrap: error: %s" % msg, file=sys.stderr)
    sys.exit(1)


def admin_session():
    auth = v3.Password(auth_url=KEYSTONE + "/v3", username="admin",
                       password=ADMIN_PASSWORD, project_name="admin",
                       user_domain_id="default", project_domain_id="default")
    return ks_session.Session(auth=auth, timeout=60)


def call(sess, method, url, expect=(200, 201, 202, 204), **kw):
    resp = sess.request(url, method, raise_exc=False, **kw)
    if resp.status_code not in expect:
        die("%s %s -> %d %s" % (method, url, resp.status_code, resp.text[:500]))
    return resp


def find_one(sess, url, key, **params):
    body = call(sess, "GET", url, params=params).json()[key]
    return body[0] if body else None


def ensure_project(sess, name, description):
    p = find_one(sess, KEYSTONE + "/v3/projects", "projects", name=name,
                 domain_id="default")
    if p:
        return p["id"]
    p = call(sess, "POST", KEYSTONE + "/v3/projects", json={"project": {
        "name": name, "domain_id": "default", "description": description,
        "enabled": True}}).json()["project"]
    print("created project %s" % name)
    return p["id"]


def ensure_user(sess, name, password, project_id):
    u = find_one(sess, KEYSTONE + "/v3/users", "users", name=name,
                 domain_id="default")
    if u:
        return u["id"]
    u = call(sess, "POST", KEYSTONE + "/v3/users", json={"user": {
        "name": name, "domain_id": "default", "password": password,
        "default_project_id": project_id, "enabled": True}}).json()["user"]
    print("created user %s" % name)
    return u["id"]


def role_id(sess, name):
    r = find_one(sess, KEYSTONE + "/v3/roles", "roles", name=name)
    if not r:
        die("role %s not found (keystone-manage bootstrap creates it)" % name)
    return r["id"]


def ensure_role(sess, name):
    if not find_one(sess, KEYSTONE + "/v3/roles", "roles", name=name):
        call(sess, "POST", KEYSTONE + "/v3/roles", json={"role": {"name": name}})
        print("created role %s" % name)


def grant(sess, project_id, user_id, role):
    call(sess, "PUT", KEYSTONE + "/v3/projects/%s/users/%s/roles/%s"
         % (project_id, user_id, role_id(sess, role)))


def ensure_service(sess, stype, name, urls):
    s = find_one(sess, KEYSTONE + "/v3/services", "services", type=stype)
    if not s:
        s = call(sess, "POST", KEYSTONE + "/v3/services", json={"service": {
            "type": stype, "name": name, "enabled": True}}).json()["service"]
        print("created service %s (%s)" % (name, stype))
    have = call(sess, "GET", KEYSTONE + "/v3/endpoints",
                params={"service_id": s["id"]}).json()["endpoints"]
    have = {e["interface"]: e for e in have if e.get("region_id") == REGION}
    for interface in ("public", "internal", "admin"):
        if interface in have:
            if have[interface]["url"] != urls:
                call(sess, "PATCH", KEYSTONE + "/v3/endpoints/" + have[interface]["id"],
                     json={"endpoint": {"url": urls}})
            continue
        call(sess, "POST", KEYSTONE + "/v3/endpoints", json={"endpoint": {
            "service_id": s["id"], "interface": interface, "url": urls,
            "region_id": REGION, "enabled": True}})


def identity():
    sess = admin_session()
    admin_project = find_one(sess, KEYSTONE + "/v3/projects", "projects",
                             name="admin", domain_id="default")
    admin_user = find_one(sess, KEYSTONE + "/v3/users", "users", name="admin",
                          domain_id="default")
    if not admin_project or not admin_user:
        die("admin project or user missing")
    service = ensure_project(sess, "service", "OpenStack service users")
    flightdeck = ensure_project(sess, "flightdeck", "Flightdeck integration tests")
    member = ensure_user(sess, "member", MEMBER_PASSWORD, flightdeck)
    grant(sess, flightdeck, member, "member")
    # Who may only look (Keystone's default reader role; the services run their new defaults).
    reader = ensure_user(sess, "reader", READER_PASSWORD, flightdeck)
    grant(sess, flightdeck, reader, "reader")
    grant(sess, flightdeck, admin_user["id"], "admin")
    # Octavia's default policy asks for roles of its own besides the new default ones: every
    # load-balancer read wants load-balancer_observer with reader (or load-balancer_member with
    # member), every write load-balancer_member with member (octavia/policies/base.py).
    # As a cloud that runs Octavia's defaults grants them: the member may change, the reader look.
    for role in ("load-balancer_member", "load-balancer_observer"):
        ensure_role(sess, role)
    grant(sess, flightdeck, member, "load-balancer_member")
    grant(sess, flightdeck, reader, "load-balancer_observer")
    ensure_role(sess, "service")  # what keystonemiddleware wants of service tokens
    for name in SERVICE_USERS:
        uid = ensure_user(sess, name, SERVICE_PASSWORD, service)
        grant(sess, service, uid, "admin")
        grant(sess, service, uid, "service")
    ensure_service(sess, "network", "neutron", NEUTRON)
    ensure_service(sess, "load-balancer", "octavia", OCTAVIA)
    if COMPUTE:
        ensure_service(sess, "compute", "nova", NOVA + "/v2.1")
        ensure_service(sess, "placement", "placement",
                       "http://%s:%d" % (HOST, PORTS["placement"]))
        ensure_service(sess, "image", "glance", GLANCE)
        ensure_service(sess, "volumev3", "cinderv3", CINDER + "/v3/%(project_id)s")
    print("identity ready: projects admin, service, flightdeck; users member, reader")


def flightdeck_id(sess):
    p = find_one(sess, KEYSTONE + "/v3/projects", "projects", name="flightdeck",
                 domain_id="default")
    if not p:
        die("project flightdeck missing")
    return p["id"]


def resources():
    sess = admin_session()
    project = flightdeck_id(sess)
    call(sess, "PUT", NEUTRON + "/v2.0/quotas/" + project,
         json={"quota": NEUTRON_QUOTA})
    print("neutron quotas of flightdeck: %s" % NEUTRON_QUOTA)
    if not COMPUTE:
        return
    call(sess, "PUT", NOVA + "/v2.1/os-quota-sets/" + project,
         json={"quota_set": NOVA_QUOTA})
    print("nova quotas of flightdeck: %s" % NOVA_QUOTA)
    admin_project = sess.get_project_id()
    call(sess, "PUT", CINDER + "/v3/%s/os-quota-sets/%s" % (admin_project, project),
         json={"quota_set": CINDER_QUOTA})
    print("cinder quotas of flightdeck: %s" % CINDER_QUOTA)
    have = {f["name"] for f in call(sess, "GET", NOVA + "/v2.1/flavors",
                                    params={"is_public": "None"}).json()["flavors"]}
    for name, fid, vcpus, ram, disk in FLAVORS:
        if name in have:
            continue
        call(sess, "POST", NOVA + "/v2.1/flavors", json={"flavor": {
            "name": name, "id": fid, "vcpus": vcpus, "ram": ram, "disk": disk,
            "os-flavor-access:is_public": True}})
        print("created flavor %s" % name)
    images = call(sess, "GET", GLANCE + "/v2/images",
                  params={"name": IMAGE_NAME}).json()["images"]
    image = next((i for i in images if i["status"] == "active"), None)
    if image is None:
        image = next((i for i in images if i["status"] == "queued"), None)
        if image is None:
            image = call(sess, "POST", GLANCE + "/v2/images", json={
                "name": IMAGE_NAME, "disk_format": "raw",
                "container_format": "bare", "visibility": "public",
                "min_disk": 0, "min_ram": 0}).json()
        call(sess, "PUT", GLANCE + "/v2/images/%s/file" % image["id"],
             data=b"\0" * IMAGE_SIZE,
             headers={"Content-Type": "application/octet-stream"})
        image = call(sess, "GET", GLANCE + "/v2/images/" + image["id"]).json()
        if image["status"] != "active":
            die("image %s is %s after the upload" % (IMAGE_NAME, image["status"]))
        print("uploaded image %s (%s)" % (IMAGE_NAME, image["id"]))


def hypervisor(host, timeout):
    sess = admin_session()
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        hvs = call(sess, "GET", NOVA + "/v2.1/os-hypervisors/detail").json()["hypervisors"]
        hv = next((h for h in hvs if h.get("service", {}).get("host") == host), None)
        if hv and hv["state"] == "up" and hv["status"] == "enabled":
            print("hypervisor %s is up" % hv["hypervisor_hostname"])
            return
        last = hv
        time.sleep(1)
    die("hypervisor of host %s not up after %d s (last seen: %s)" % (host, timeout, last))


def main():
    if len(sys.argv) < 2:
        die("usage: bootstrap.py identity|resources|hypervisor HOST TIMEOUT")
    if sys.argv[1] == "identity":
        identity()
    elif sys.argv[1] == "resources":
        resources()
    elif sys.argv[1] == "hypervisor":
        hypervisor(sys.argv[2], int(sys.argv[3]))
    else:
        die("unknown step %s" % sys.argv[1])


if __name__ == "__main__":
    main()
