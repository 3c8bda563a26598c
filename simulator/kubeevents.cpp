#include "simulator/kubeevents.h"

#include "simulator/apirender.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUuid>

namespace {

const QString kGroupPrefix = QStringLiteral("/apis/events.k8s.io/v1");

QByteArray toJson(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

HttpResponse status(int code, const QString &reason, const QString &message, const QJsonObject &details = {})
{
    QJsonObject o { { QStringLiteral("kind"), QStringLiteral("Status") },
        { QStringLiteral("apiVersion"), QStringLiteral("v1") }, { QStringLiteral("metadata"), QJsonObject() },
        { QStringLiteral("status"), QStringLiteral("Failure") }, { QStringLiteral("message"), message },
        { QStringLiteral("reason"), reason }, { QStringLiteral("code"), code } };
    if (!details.isEmpty())
        o.insert(QStringLiteral("details"), details);
    return HttpResponse::json(code, toJson(o));
}

QString age(qint64 seconds)
{
    if (seconds < 120)
        return QStringLiteral("%1s").arg(qMax<qint64>(0, seconds));
    if (seconds < 3600)
        return QStringLiteral("%1m").arg(seconds / 60);
    return QStringLiteral("%1h").arg(seconds / 3600);
}

QJsonValue at(const QJsonObject &object, const QString &dotted)
{
    QJsonValue v = object;
    for (const QString &part : dotted.split(QLatin1Char('.')))
        v = v.toObject().value(part);
    return v;
}

bool wantsWatch(const HttpRequest &request)
{
    const QString w = request.queryValue(QStringLiteral("watch"));
    return w == QLatin1String("true") || w == QLatin1String("1");
}

// A DNS subdomain, as metadata.name of an Event must be.
bool validName(const QString &name)
{
    static const QRegularExpression re(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    return !name.isEmpty() && name.size() <= 253 && re.match(name).hasMatch();
}

} // namespace

KubeEvents::KubeEvents(World *world, QObject *parent)
    : QObject(parent)
    , m_world(world)
{ }

QJsonObject KubeEvents::coreResource()
{
    return QJsonObject { { QStringLiteral("name"), QStringLiteral("events") },
        { QStringLiteral("singularName"), QStringLiteral("event") }, { QStringLiteral("namespaced"), true },
        { QStringLiteral("kind"), QStringLiteral("Event") },
        { QStringLiteral("verbs"),
            QJsonArray { QStringLiteral("create"), QStringLiteral("get"), QStringLiteral("list"),
                QStringLiteral("watch") } },
        { QStringLiteral("shortNames"), QJsonArray { QStringLiteral("ev") } } };
}

QJsonObject KubeEvents::groupEntry()
{
    const QJsonObject version { { QStringLiteral("groupVersion"), QStringLiteral("events.k8s.io/v1") },
        { QStringLiteral("version"), QStringLiteral("v1") } };
    return QJsonObject { { QStringLiteral("name"), QStringLiteral("events.k8s.io") },
        { QStringLiteral("versions"), QJsonArray { version } },
        { QStringLiteral("preferredVersion"), version } };
}

void KubeEvents::expire(const QString &kluster)
{
    const QDateTime now = m_world->now();
    auto it = m_events.find(kluster);
    if (it == m_events.end())
        return;
    it->removeIf([&](const Stored &e) { return e.created.secsTo(now) >= TtlSeconds; });
}

QList<QJsonObject> KubeEvents::events(const QString &kluster)
{
    expire(kluster);
    QList<QJsonObject> out;
    for (const Stored &e : m_events.value(kluster))
        out.append(e.object);
    return out;
}

std::optional<HttpResponse> KubeEvents::handle(const QString &kluster, const HttpRequest &request)
{
    const QString path = request.path;
    const bool get = request.method == "GET";
    if (get && path == QLatin1String("/apis/events.k8s.io")) {
        QJsonObject group = groupEntry();
        group.insert(QStringLiteral("kind"), QStringLiteral("APIGroup"));
        group.insert(QStringLiteral("apiVersion"), QStringLiteral("v1"));
        return HttpResponse::json(200, toJson(group));
    }
    if (get && path == kGroupPrefix) {
        QJsonObject resource = coreResource();
        resource.remove(QStringLiteral("shortNames"));
        return HttpResponse::json(200,
            toJson(QJsonObject { { QStringLiteral("kind"), QStringLiteral("APIResourceList") },
                { QStringLiteral("apiVersion"), QStringLiteral("v1") },
                { QStringLiteral("groupVersion"), QStringLiteral("events.k8s.io/v1") },
                { QStringLiteral("resources"), QJsonArray { resource } } }));
    }
    // /apis/events.k8s.io/v1/[namespaces/<ns>/]events[/<name>] and /api/v1/[namespaces/<ns>/]events[/<name>]
    static const QRegularExpression re(
        QStringLiteral("^(/apis/events\\.k8s\\.io/v1|/api/v1)(?:/namespaces/([^/]+))?/events(?:/([^/]+))?$"));
    const QRegularExpressionMatch m = re.match(path);
    if (!m.hasMatch())
        return std::nullopt;
    const bool core = m.captured(1) == QLatin1String("/api/v1");
    const QString nameSpace = m.captured(2);
    const QString name = m.captured(3);
    expire(kluster);
    if (request.method == "POST" && name.isEmpty() && !nameSpace.isEmpty() && !core)
        return create(kluster, nameSpace, request);
    if (!get)
        return status(405, QStringLiteral("MethodNotAllowed"),
            QStringLiteral("the server does not allow this method on the requested resource"));
    if (!name.isEmpty()) {
        for (const Stored &e : m_events.value(kluster)) {
            if (e.nameSpace == nameSpace && e.name == name)
                return HttpResponse::json(200, toJson(core ? coreForm(e) : e.object));
        }
        const QString what = core ? QStringLiteral("events") : QStringLiteral("events.events.k8s.io");
        return status(404, QStringLiteral("NotFound"), QStringLiteral("%1 \"%2\" not found").arg(what, name),
            QJsonObject {
                { QStringLiteral("name"), name }, { QStringLiteral("kind"), QStringLiteral("events") } });
    }
    QString why;
    const std::optional<Selector> selector = selectorOf(request, core, &why);
    if (!selector)
        return status(400, QStringLiteral("BadRequest"), why);
    return wantsWatch(request) ? watch(kluster, nameSpace, *selector, request)
                               : list(kluster, nameSpace, *selector, request);
}

HttpResponse KubeEvents::create(const QString &kluster, const QString &nameSpace, const HttpRequest &request)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(request.body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return status(400, QStringLiteral("BadRequest"),
            QStringLiteral("the body of the request was in an unknown format"));
    QJsonObject object = doc.object();
    QJsonObject metadata = object.value(QStringLiteral("metadata")).toObject();
    QString name = metadata.value(QStringLiteral("name")).toString();
    if (name.isEmpty() && !metadata.value(QStringLiteral("generateName")).toString().isEmpty())
        name = metadata.value(QStringLiteral("generateName")).toString()
            + QUuid::createUuid().toString(QUuid::Id128).left(5);
    const QString given = metadata.value(QStringLiteral("namespace")).toString();
    if (!given.isEmpty() && given != nameSpace)
        return status(400, QStringLiteral("BadRequest"),
            QStringLiteral("the namespace of the provided object does not match the namespace sent on the "
                           "request"));
    // What validation (ValidateEventCreate for events.k8s.io/v1) asks of a new Event.
    QStringList invalid;
    if (!validName(name))
        invalid << QStringLiteral("metadata.name: Invalid value: \"%1\": a lowercase RFC 1123 subdomain must "
                                  "consist of lower case alphanumeric characters, '-' or '.'")
                       .arg(name);
    if (object.value(QStringLiteral("eventTime")).toString().isEmpty())
        invalid << QStringLiteral("eventTime: Required value");
    const QString type = object.value(QStringLiteral("type")).toString();
    if (type != QLatin1String("Normal") && type != QLatin1String("Warning"))
        invalid << QStringLiteral(
            "type: Unsupported value: \"%1\": supported values: \"Normal\", \"Warning\"")
                       .arg(type);
    for (const char *field : { "reportingController", "reportingInstance", "action", "reason" }) {
        const QString value = object.value(QLatin1String(field)).toString();
        if (value.isEmpty())
            invalid << QStringLiteral("%1: Required value").arg(QLatin1String(field));
        else if (value.size() > 128)
            invalid
                << QStringLiteral("%1: Too long: may not be more than 128 bytes").arg(QLatin1String(field));
    }
    if (object.value(QStringLiteral("note")).toString().toUtf8().size() > 1024)
        invalid << QStringLiteral("note: Too long: may not be more than 1024 bytes");
    if (object.value(QStringLiteral("regarding"))
            .toObject()
            .value(QStringLiteral("kind"))
            .toString()
            .isEmpty())
        invalid << QStringLiteral("regarding.kind: Required value");
    if (!invalid.isEmpty())
        return status(422, QStringLiteral("Invalid"),
            QStringLiteral("Event.events.k8s.io \"%1\" is invalid: %2")
                .arg(name, invalid.join(QStringLiteral(", "))),
            QJsonObject { { QStringLiteral("name"), name },
                { QStringLiteral("group"), QStringLiteral("events.k8s.io") },
                { QStringLiteral("kind"), QStringLiteral("Event") } });
    QList<Stored> &events = m_events[kluster];
    for (const Stored &e : std::as_const(events)) {
        if (e.nameSpace == nameSpace && e.name == name)
            return status(409, QStringLiteral("AlreadyExists"),
                QStringLiteral("events.events.k8s.io \"%1\" already exists").arg(name),
                QJsonObject { { QStringLiteral("name"), name },
                    { QStringLiteral("group"), QStringLiteral("events.k8s.io") },
                    { QStringLiteral("kind"), QStringLiteral("events") } });
    }
    Stored stored;
    stored.nameSpace = nameSpace;
    stored.name = name;
    stored.created = m_world->now();
    stored.resourceVersion = ++m_world->resourceVersionCounter;
    metadata.remove(QStringLiteral("generateName"));
    metadata.insert(QStringLiteral("name"), name);
    metadata.insert(QStringLiteral("namespace"), nameSpace);
    metadata.insert(QStringLiteral("uid"), QUuid::createUuid().toString(QUuid::WithoutBraces));
    metadata.insert(QStringLiteral("resourceVersion"), QString::number(stored.resourceVersion));
    metadata.insert(QStringLiteral("creationTimestamp"), ApiRender::timestamp(stored.created));
    object.insert(QStringLiteral("metadata"), metadata);
    object.insert(QStringLiteral("kind"), QStringLiteral("Event"));
    object.insert(QStringLiteral("apiVersion"), QStringLiteral("events.k8s.io/v1"));
    stored.object = object;
    events.append(stored);
    m_watchers.removeIf([](const Watcher &w) { return !w.stream; });
    for (const Watcher &w : std::as_const(m_watchers)) {
        if (w.kluster != kluster || (!w.nameSpace.isEmpty() && w.nameSpace != nameSpace)
            || !w.selector.matches(stored.object, coreForm(stored)))
            continue;
        w.stream->write(
            toJson(QJsonObject { { QStringLiteral("type"), QStringLiteral("ADDED") },
                { QStringLiteral("object"), w.selector.core ? coreForm(stored) : stored.object } })
            + '\n');
    }
    return HttpResponse::json(201, toJson(object));
}

QJsonObject KubeEvents::coreForm(const Stored &event) const
{
    // As the API server converts an events.k8s.io/v1 Event to core v1.
    const QJsonObject e = event.object;
    QJsonObject o { { QStringLiteral("kind"), QStringLiteral("Event") },
        { QStringLiteral("apiVersion"), QStringLiteral("v1") },
        { QStringLiteral("metadata"), e.value(QStringLiteral("metadata")) },
        { QStringLiteral("involvedObject"), e.value(QStringLiteral("regarding")) },
        { QStringLiteral("reason"), e.value(QStringLiteral("reason")) },
        { QStringLiteral("message"), e.value(QStringLiteral("note")) },
        { QStringLiteral("source"), QJsonObject() }, { QStringLiteral("firstTimestamp"), QJsonValue() },
        { QStringLiteral("lastTimestamp"), QJsonValue() },
        { QStringLiteral("type"), e.value(QStringLiteral("type")) },
        { QStringLiteral("eventTime"), e.value(QStringLiteral("eventTime")) },
        { QStringLiteral("action"), e.value(QStringLiteral("action")) },
        { QStringLiteral("reportingComponent"), e.value(QStringLiteral("reportingController")) },
        { QStringLiteral("reportingInstance"), e.value(QStringLiteral("reportingInstance")) } };
    if (e.contains(QStringLiteral("related")))
        o.insert(QStringLiteral("related"), e.value(QStringLiteral("related")));
    return o;
}

namespace {

// The fields an Event may be selected by, per API group (as the API server's field label conversions allow).
const QStringList kCoreFields { QStringLiteral("involvedObject.kind"),
    QStringLiteral("involvedObject.namespace"), QStringLiteral("involvedObject.name"),
    QStringLiteral("involvedObject.uid"), QStringLiteral("involvedObject.apiVersion"),
    QStringLiteral("involvedObject.resourceVersion"), QStringLiteral("involvedObject.fieldPath"),
    QStringLiteral("reason"), QStringLiteral("reportingComponent"), QStringLiteral("source"),
    QStringLiteral("type"), QStringLiteral("metadata.name"), QStringLiteral("metadata.namespace") };
const QStringList kGroupFields { QStringLiteral("regarding.kind"), QStringLiteral("regarding.namespace"),
    QStringLiteral("regarding.name"), QStringLiteral("regarding.uid"), QStringLiteral("regarding.apiVersion"),
    QStringLiteral("regarding.resourceVersion"), QStringLiteral("regarding.fieldPath"),
    QStringLiteral("reason"), QStringLiteral("reportingController"), QStringLiteral("type"),
    QStringLiteral("metadata.name"), QStringLiteral("metadata.namespace") };

} // namespace

std::optional<KubeEvents::Selector> KubeEvents::selectorOf(
    const HttpRequest &request, bool core, QString *error)
{
    Selector selector;
    selector.core = core;
    const auto parse = [error](const QString &text, bool labels, QList<Term> *terms) {
        if (text.contains(QLatin1Char('('))) {
            *error
                = QStringLiteral("set-based selectors (in, notin) are not supported here: \"%1\"").arg(text);
            return false;
        }
        for (const QString &raw : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString term = raw.trimmed();
            Term t;
            qsizetype at = -1;
            int width = 0;
            if ((at = term.indexOf(QLatin1String("!="))) > 0) {
                t.op = Term::Op::NotEqual;
                width = 2;
            } else if ((at = term.indexOf(QLatin1String("=="))) > 0) {
                width = 2;
            } else if ((at = term.indexOf(QLatin1Char('='))) > 0) {
                width = 1;
            }
            if (at > 0) {
                t.key = term.left(at).trimmed();
                t.value = term.mid(at + width).trimmed();
            } else if (labels && term.startsWith(QLatin1Char('!')) && term.size() > 1) {
                t.op = Term::Op::Absent;
                t.key = term.mid(1).trimmed();
            } else if (labels && !term.contains(QLatin1Char('=')) && !term.contains(QLatin1Char('!'))) {
                t.op = Term::Op::Exists;
                t.key = term;
            } else {
                *error = QStringLiteral("invalid selector: '%1'; can't understand '%2'").arg(text, term);
                return false;
            }
            if (t.key.isEmpty() || t.key.contains(QLatin1Char(' '))) {
                *error = QStringLiteral("invalid selector: '%1'").arg(text);
                return false;
            }
            terms->append(t);
        }
        return true;
    };
    if (!parse(request.queryValue(QStringLiteral("fieldSelector")), false, &selector.fields)
        || !parse(request.queryValue(QStringLiteral("labelSelector")), true, &selector.labels))
        return std::nullopt;
    const QStringList &known = core ? kCoreFields : kGroupFields;
    for (const Term &t : std::as_const(selector.fields)) {
        if (!known.contains(t.key)) {
            *error = QStringLiteral("\"%1\" is not a known field selector: only \"%2\"")
                         .arg(t.key, known.join(QStringLiteral("\", \"")));
            return std::nullopt;
        }
    }
    return selector;
}

bool KubeEvents::Selector::matches(const QJsonObject &object, const QJsonObject &coreObject) const
{
    const QJsonObject &fieldsOf = core ? coreObject : object;
    for (const Term &t : fields) {
        // `source` is core v1's source.component.
        const QString actual = t.key == QLatin1String("source")
            ? at(fieldsOf, QStringLiteral("source.component")).toString()
            : at(fieldsOf, t.key).toString();
        if ((actual == t.value) != (t.op == Term::Op::Equal))
            return false;
    }
    const QJsonObject labels
        = object.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("labels")).toObject();
    for (const Term &t : this->labels) {
        const bool has = labels.contains(t.key);
        const QString value = labels.value(t.key).toString();
        switch (t.op) {
        case Term::Op::Equal:
            if (!has || value != t.value)
                return false;
            break;
        case Term::Op::NotEqual:
            if (has && value == t.value)
                return false;
            break;
        case Term::Op::Exists:
            if (!has)
                return false;
            break;
        case Term::Op::Absent:
            if (has)
                return false;
            break;
        }
    }
    return true;
}

QJsonObject KubeEvents::table(const QList<const Stored *> &events, const QString &resourceVersion) const
{
    auto column = [](const char *name, int priority, const char *description) {
        return QJsonObject { { QStringLiteral("name"), QString::fromLatin1(name) },
            { QStringLiteral("type"), QStringLiteral("string") }, { QStringLiteral("format"), QString() },
            { QStringLiteral("description"), QString::fromLatin1(description) },
            { QStringLiteral("priority"), priority } };
    };
    const QJsonArray columns { column("Last Seen", 0, "Time when this Event was last seen"),
        column("Type", 0, "Type of this event (Normal, Warning), new types could be added in the future."),
        column("Reason", 0,
            "The reason this event is generated. 'reason' should be short and unique; it should be in "
            "UpperCamelCase format (starting with a capital letter)."),
        column("Object", 0, "The object that this event is about. Mapped to events.Event.regarding"),
        column("Source", 1, "The component reporting this event. Short machine understandable string."),
        column("Message", 0, "A human-readable description of the status of this operation.") };
    const QDateTime now = m_world->now();
    QJsonArray rows;
    for (const Stored *e : events) {
        const QJsonObject regarding = e->object.value(QStringLiteral("regarding")).toObject();
        rows.append(QJsonObject {
            { QStringLiteral("cells"),
                QJsonArray { age(e->created.secsTo(now)), e->object.value(QStringLiteral("type")).toString(),
                    e->object.value(QStringLiteral("reason")).toString(),
                    QStringLiteral("%1/%2").arg(regarding.value(QStringLiteral("kind")).toString().toLower(),
                        regarding.value(QStringLiteral("name")).toString()),
                    QStringLiteral("%1, %2").arg(
                        e->object.value(QStringLiteral("reportingController")).toString(),
                        e->object.value(QStringLiteral("reportingInstance")).toString()),
                    e->object.value(QStringLiteral("note")).toString() } },
            { QStringLiteral("object"),
                QJsonObject { { QStringLiteral("kind"), QStringLiteral("PartialObjectMetadata") },
                    { QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1") },
                    { QStringLiteral("metadata"), e->object.value(QStringLiteral("metadata")) } } } });
    }
    return QJsonObject { { QStringLiteral("kind"), QStringLiteral("Table") },
        { QStringLiteral("apiVersion"), QStringLiteral("meta.k8s.io/v1") },
        { QStringLiteral("metadata"),
            QJsonObject { { QStringLiteral("resourceVersion"), resourceVersion } } },
        { QStringLiteral("columnDefinitions"), columns }, { QStringLiteral("rows"), rows } };
}

HttpResponse KubeEvents::list(
    const QString &kluster, const QString &nameSpace, const Selector &selector, const HttpRequest &request)
{
    const bool core = selector.core;
    QList<const Stored *> chosen;
    const QList<Stored> &events = m_events[kluster];
    for (const Stored &e : events) {
        if (!nameSpace.isEmpty() && e.nameSpace != nameSpace)
            continue;
        if (!selector.matches(e.object, coreForm(e)))
            continue;
        chosen.append(&e);
    }
    const QString resourceVersion = QString::number(m_world->resourceVersionCounter);
    if (request.header("accept").contains("as=Table"))
        return HttpResponse::json(200, toJson(table(chosen, resourceVersion)));
    QJsonArray items;
    for (const Stored *e : std::as_const(chosen))
        items.append(core ? coreForm(*e) : e->object);
    return HttpResponse::json(200,
        toJson(QJsonObject { { QStringLiteral("kind"), QStringLiteral("EventList") },
            { QStringLiteral("apiVersion"),
                core ? QStringLiteral("v1") : QStringLiteral("events.k8s.io/v1") },
            { QStringLiteral("metadata"),
                QJsonObject { { QStringLiteral("resourceVersion"), resourceVersion } } },
            { QStringLiteral("items"), items } }));
}

HttpResponse KubeEvents::watch(
    const QString &kluster, const QString &nameSpace, const Selector &selector, const HttpRequest &request)
{
    const bool core = selector.core;
    // From a resourceVersion: the Events written after it, then each new one; from none or "0": every Event
    // kept, as ADDED, then each new one.
    const QString asked = request.queryValue(QStringLiteral("resourceVersion"));
    const qint64 from = asked.toLongLong();
    QList<QByteArray> first;
    for (const Stored &e : m_events.value(kluster)) {
        if ((!nameSpace.isEmpty() && e.nameSpace != nameSpace) || e.resourceVersion <= from
            || !selector.matches(e.object, coreForm(e)))
            continue;
        first.append(toJson(QJsonObject { { QStringLiteral("type"), QStringLiteral("ADDED") },
                         { QStringLiteral("object"), core ? coreForm(e) : e.object } })
            + '\n');
    }
    const int timeoutSeconds = request.queryValue(QStringLiteral("timeoutSeconds")).toInt();
    HttpResponse r;
    r.header("Content-Type", "application/json");
    QPointer<KubeEvents> self(this);
    r.stream = [self, first, timeoutSeconds, kluster, nameSpace, selector](HttpStream *s) {
        if (!self) {
            s->end();
            return;
        }
        for (const QByteArray &line : first)
            s->write(line);
        self->m_watchers.append({ QPointer<HttpStream>(s), kluster, nameSpace, selector });
        s->endAfter(timeoutSeconds);
    };
    return r;
}
