#include "views/teamrepairspanel.h"

#include "core/printable.h"
#include "core/repairevent.h"
#include "views/severitystyle.h"

#include <QTextDocument>

namespace {

QString escapedLines(const QStringList &lines, const QString &separator)
{
    QStringList html;
    for (const QString &l : lines)
        html << OutsideText::html(l, 600);
    return html.join(separator);
}

} // namespace

TeamRepairsPanel::TeamRepairsPanel(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setVisible(false);
}

void TeamRepairsPanel::showRepairs(const QStringList &lines, const QStringList &problems)
{
    setVisible(!lines.isEmpty() || !problems.isEmpty());
    QString text = lines.isEmpty()
        ? QString()
        : tr("<b>Lately on this kluster</b> (its repair Events and Kubernikus' events, newest first):"
             "<br>&nbsp;&nbsp;%1")
              .arg(escapedLines(lines, QStringLiteral("<br>&nbsp;&nbsp;")));
    for (const QString &problem : problems)
        text += (text.isEmpty() ? QString() : QStringLiteral("<br>"))
            + QStringLiteral("<i>%1</i>").arg(OutsideText::html(problem));
    setText(text);
}

void TeamRepairsPanel::showWarning(const QStringList &lines, bool inProgress)
{
    setVisible(!lines.isEmpty());
    if (lines.isEmpty()) {
        clear();
        return;
    }
    setText(tr("<span style=\"color:%1\"><b>&#9888; %2</b></span> %3<br>"
               "Check with them before sending: two repairs of one router or node can undo each other.")
                .arg(SeverityStyle::colour(Severity::Warning).name(),
                    inProgress ? tr("A teammate is repairing this kluster.")
                               : tr("A teammate repaired this kluster in the last %1 minutes.")
                                     .arg(RepairEvents::WarnMinutes),
                    escapedLines(lines, QStringLiteral("; "))));
}

QString TeamRepairsPanel::shown() const
{
    if (isHidden() && text().isEmpty())
        return QString();
    QTextDocument doc;
    doc.setHtml(text());
    return doc.toPlainText();
}
