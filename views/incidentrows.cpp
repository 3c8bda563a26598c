#include "views/incidentrows.h"

#include "core/diagnosis.h"
#include "core/printable.h"
#include "models/findingsmodel.h"
#include "models/findingstreemodel.h"
#include "views/severitystyle.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

IncidentRows::IncidentRows(QWidget *parent)
    : QWidget(parent)
    , m_rest(new QLabel(this))
{
    setObjectName(QStringLiteral("incidents"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    for (int i = 0; i < MostRows; ++i) {
        m_rows << makeRow(i);
        layout->addWidget(m_rows.last().frame);
    }
    m_rest->setTextFormat(Qt::PlainText);
    m_rest->setWordWrap(true);
    m_rest->setVisible(false);
    layout->addWidget(m_rest);
    setVisible(false);
}

IncidentRows::Row IncidentRows::makeRow(int index)
{
    Row r;
    r.frame = new QFrame(this);
    r.frame->setFrameShape(QFrame::StyledPanel);
    r.frame->setAutoFillBackground(true);
    auto *h = new QHBoxLayout(r.frame);
    h->setContentsMargins(6, 4, 6, 4);
    r.icon = new QLabel(r.frame);
    h->addWidget(r.icon, 0, Qt::AlignTop);
    // Plain text, two labels: a refresh changes the facts' line (since when) alone, and plain text is set and
    // measured without a document of its own (rich text made six rows 10–20 ms of the window's time).
    auto *words = new QVBoxLayout;
    words->setSpacing(0);
    r.title = new QLabel(r.frame);
    QFont bold = r.title->font();
    bold.setBold(true);
    r.title->setFont(bold);
    r.details = new QLabel(r.frame);
    for (QLabel *l : { r.title, r.details }) {
        l->setTextFormat(Qt::PlainText); // the cloud's words as they are
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        words->addWidget(l);
    }
    h->addLayout(words, 1);
    r.show = new QPushButton(tr("Findings"), r.frame);
    r.show->setToolTip(tr("Select its findings in the Findings view (grouped by incident: the incident, its "
                          "findings beneath it)"));
    h->addWidget(r.show, 0, Qt::AlignVCenter);
    r.repair = new QPushButton(tr("Repair…"), r.frame);
    r.repair->setToolTip(tr("Preview its one repair; nothing is sent before you confirm"));
    h->addWidget(r.repair, 0, Qt::AlignVCenter);
    // The row's incident is looked up when a button is pressed: the row shows another one after a refresh.
    // (A copy: a slot that refreshes would change the row under it.)
    connect(r.show, &QPushButton::clicked, this, [this, index] {
        const QString id = m_rows.at(index).id;
        if (!id.isEmpty())
            emit showRequested(id);
    });
    connect(r.repair, &QPushButton::clicked, this, [this, index] {
        const QString id = m_rows.at(index).id;
        if (!id.isEmpty())
            emit repairRequested(id);
    });
    r.frame->setVisible(false);
    // Styled now, while nothing waits on it, not when the first kluster with an incident is shown.
    r.frame->ensurePolished();
    return r;
}

void IncidentRows::setIncidents(const Diagnosis &diagnosis, const QHash<QString, FindingHistory> &since,
    const QDateTime &at, bool withRepair)
{
    // The rows' words first: when they and the buttons are what is shown already, nothing changes.
    struct Words
    {
        const Incident *incident;
        QString facts;
        std::optional<RepairPlan> plan;
        QString next;
    };
    QList<Words> words;
    QStringList lines;
    QString shown = QString::number(palette().cacheKey()); // with each row's incident, for its buttons
    // The worst few, each a row with its buttons; the rest counted beneath them (27 rows of rich text were a
    // tenth of a second of the window's time, and no one reads them here: Findings groups them all).
    const qsizetype rowed = qMin<qsizetype>(diagnosis.incidents.size(), MostRows);
    for (qsizetype n = 0; n < rowed; ++n) {
        const Incident &i = diagnosis.incidents.at(n); // held by `diagnosis`: the words point to it
        // Since when: the oldest of its findings the history has seen (nothing when it has seen none).
        const FindingHistory *oldest = nullptr;
        for (const QString &id : i.members) {
            const auto h = since.constFind(id);
            if (h != since.cend() && (!oldest || h->firstSeen < oldest->firstSeen))
                oldest = &h.value();
        }
        QString facts = QStringLiteral("%1 · %2").arg(
            severityName(i.severity), FindingsTreeModel::memberCount(int(i.members.size())));
        if (oldest) {
            // "open 2 h 10 min, since 14:05", "open over 3 h"; "new, 14:05" and "open when first recorded"
            // say it already.
            const QString sinceText = FindingsModel::sinceText(*oldest, at);
            facts += QStringLiteral(" · ")
                + (oldest->firstSeen.secsTo(at) >= 60 && !oldest->flapping() ? tr("open %1").arg(sinceText)
                                                                             : sinceText);
        }
        const std::optional<RepairPlan> plan = withRepair ? i.repair() : std::nullopt;
        const QString next = !withRepair ? QString()
            : plan                       ? tr("Repair: %1").arg(plan->title)
                                         : FindingsModel::noRepairReason(i.rule);
        words.append({ &i, facts, plan, next });
        lines << QStringLiteral("%1\n%2\n%3").arg(i.title, facts, next);
        shown += u'\x1e' + i.id() + u'\x1f' + lines.last();
    }
    const qsizetype more = diagnosis.incidents.size() - rowed;
    if (more > 0) {
        const auto critical = std::count_if(diagnosis.incidents.cbegin() + rowed, diagnosis.incidents.cend(),
            [](const Incident &i) { return i.severity == Severity::Critical; });
        const QString counted = more == 1 ? tr("1 more incident") : tr("%1 more incidents").arg(more);
        lines << (critical > 0
                ? tr("%1, %2 of them critical: Findings (Ctrl+2) groups every finding under its "
                     "incident.")
                      .arg(counted)
                      .arg(critical)
                : tr("%1: Findings (Ctrl+2) groups every finding under its incident.").arg(counted));
        shown += u'\x1e' + lines.last();
    }
    if (shown == m_shown) {
        setVisible(!diagnosis.incidents.isEmpty());
        return;
    }
    m_shown = shown;
    m_lines = lines;
    // The keyboard on a row's button: held here while the rows change (a row hidden would throw it on), then
    // given to the same incident's button, else the first.
    QWidget *focused = window()->focusWidget();
    const bool hadFocus = focused && isAncestorOf(focused);
    const QString focusedName = hadFocus ? focused->accessibleName() : QString();
    if (hadFocus)
        setFocus(Qt::OtherFocusReason);
    const qint64 paletteKey = palette().cacheKey();
    for (qsizetype n = 0; n < m_rows.size(); ++n) {
        Row &r = m_rows[n];
        if (n >= words.size()) {
            r.frame->setVisible(false);
            r.id.clear();
            r.repair->setObjectName(QString());
            continue;
        }
        const Words &w = words.at(n);
        const Incident &i = *w.incident;
        if (r.severity != i.severity || r.paletteKey != paletteKey) {
            r.severity = i.severity;
            r.paletteKey = paletteKey;
            QPalette tinted = palette();
            tinted.setColor(QPalette::Window, SeverityStyle::tint(i.severity));
            r.frame->setPalette(tinted);
            r.icon->setPixmap(SeverityStyle::icon(i.severity).pixmap(22, 22));
        }
        r.title->setText(OutsideText::wrappableLine(i.title));
        r.details->setText(OutsideText::wrappableLine(w.facts, 600)
            + (w.next.isEmpty() ? QString() : u'\n' + OutsideText::wrappableLine(w.next, 600)));
        r.id = i.id();
        r.show->setAccessibleName(tr("Show the findings of incident %1").arg(r.id));
        r.repair->setAccessibleName(tr("Repair incident %1").arg(r.id));
        // Named for the tests only while it is offered.
        r.repair->setObjectName(w.plan ? QStringLiteral("repair ") + r.id : QString());
        r.repair->setVisible(w.plan.has_value());
        r.frame->setVisible(true);
    }
    m_rest->setText(more > 0 ? lines.last() : QString());
    m_rest->setVisible(more > 0);
    setVisible(!diagnosis.incidents.isEmpty());
    if (!hadFocus)
        return;
    QPushButton *first = nullptr;
    QPushButton *same = nullptr;
    for (const Row &r : std::as_const(m_rows)) {
        for (QPushButton *b : { r.show, r.repair }) {
            if (r.frame->isHidden() || b->isHidden())
                continue;
            first = first ? first : b;
            same = !same && b->accessibleName() == focusedName ? b : same;
        }
    }
    QPushButton *again = same ? same : first;
    if (again)
        again->setFocus(Qt::OtherFocusReason);
    else if (window()->focusWidget() == this)
        focusNextChild(); // no incident left: the next stop after them (unless hiding them moved it there)
}
