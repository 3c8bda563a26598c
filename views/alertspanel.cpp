#include "views/alertspanel.h"

#include "core/printable.h"
#include "views/severitystyle.h"

AlertsPanel::AlertsPanel(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("alerts"));
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard
        | Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    setOpenExternalLinks(false);
    connect(this, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link.startsWith(QLatin1String("silence:")))
            emit silenceRequested(link.mid(8));
    });
    setAccessibleName(tr("Alerts in Alertmanager"));
    setVisible(false);
}

void AlertsPanel::showAlerts(const ConsoleText::AlertsText &alerts)
{
    if (alerts.heading.isEmpty()) {
        clear();
        setVisible(false);
        return;
    }
    // Each alert a line: its severity in its colour, what no finding explains in bold (the cause is
    // elsewhere), the monitoring's gap and a failed read beneath.
    QString html = QStringLiteral("<b>%1</b>").arg(alerts.heading.toHtmlEscaped());
    for (const ConsoleText::AlertsText::Row &row : alerts.rows) {
        const std::optional<Severity> severity = severityFromName(row.severity);
        const QString mark
            = QStringLiteral("<span style=\"color:%1\">&#9679; %2</span>")
                  .arg(SeverityStyle::colour(severity).name(),
                      (row.severity.isEmpty() ? tr("alert") : row.severity).toHtmlEscaped().toUpper());
        QString text = OutsideText::html(row.text, 600);
        if (row.unexplained)
            text = QStringLiteral("<b>%1</b>").arg(text);
        if (row.silenced)
            text = QStringLiteral("<span style=\"color:%1\">%2</span>")
                       .arg(palette().color(QPalette::PlaceholderText).name(), text);
        html += QStringLiteral("<br>%1 %2").arg(mark, text);
        if (!row.silenced && !row.fingerprint.isEmpty())
            html += QStringLiteral(" &nbsp;<a href=\"silence:%1\">%2</a>")
                        .arg(OutsideText::html(row.fingerprint, 64), tr("Silence…"));
    }
    if (!alerts.more.isEmpty())
        html += QStringLiteral("<br><i>%1</i>").arg(alerts.more.toHtmlEscaped());
    if (!alerts.gap.isEmpty())
        html += QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                    .arg(SeverityStyle::alarmText(palette()).name(), alerts.gap.toHtmlEscaped());
    if (!alerts.problem.isEmpty())
        html += QStringLiteral("<br><i>%1</i>").arg(OutsideText::html(alerts.problem, 600));
    if (text() != html)
        setText(html);
    setVisible(true);
}

QString AlertsPanel::shown() const
{
    return isVisible() ? text() : QString();
}
