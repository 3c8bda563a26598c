#include "views/severitystyle.h"

#include "views/icons.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QStyle>

namespace SeverityStyle {

QColor colour(std::optional<Severity> severity)
{
    if (!severity)
        return QColor(60, 150, 80);
    switch (*severity) {
    case Severity::Critical:
        return QColor(220, 50, 47);
    case Severity::Warning:
        return QColor(230, 160, 0);
    case Severity::Info:
        return QColor(38, 139, 210);
    }
    return QColor();
}

QColor tint(std::optional<Severity> severity)
{
    if (severity != Severity::Critical && severity != Severity::Warning)
        return QColor();
    QColor c = colour(severity);
    c.setAlpha(70);
    return c;
}

QColor wash(std::optional<Severity> severity, const QPalette &palette)
{
    const QColor strong = colour(severity);
    const QColor window = palette.color(QPalette::Window);
    const qreal a = 0.22; // a fifth of the colour: the palette's own text still reads on it, light or dark
    const auto mix = [a](qreal under, qreal over) { return under * (1 - a) + over * a; };
    return QColor::fromRgbF(mix(window.redF(), strong.redF()), mix(window.greenF(), strong.greenF()),
        mix(window.blueF(), strong.blueF()));
}

QIcon icon(std::optional<Severity> severity)
{
    if (!severity)
        return Icons::named(QStringLiteral("severity-healthy"));
    switch (*severity) {
    case Severity::Critical:
        return Icons::named(QStringLiteral("severity-critical"));
    case Severity::Warning:
        return Icons::named(QStringLiteral("severity-warning"));
    case Severity::Info:
        return Icons::named(QStringLiteral("severity-info"));
    }
    return QIcon();
}

QString word(std::optional<Severity> severity)
{
    return severity ? severityName(*severity) : QApplication::translate("SeverityStyle", "healthy");
}

QColor alarmText(const QPalette &palette)
{
    // Dark red on a light base, light red on a dark one.
    return palette.color(QPalette::Base).lightness() > 128 ? QColor(183, 28, 28) : QColor(255, 138, 128);
}

QIcon statusIcon(std::optional<Severity> severity)
{
    QIcon icon;
    for (int size : { 16, 22, 32, 48, 64 }) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        const qreal m = size / 8.0;
        p.setPen(QPen(QColor(30, 30, 30, 160), qMax(1.0, size / 16.0)));
        p.setBrush(colour(severity));
        p.drawEllipse(QRectF(m, m, size - 2 * m, size - 2 * m));
        if (severity == Severity::Critical || severity == Severity::Warning) { // a "!", never colour alone
            p.setPen(Qt::NoPen);
            p.setBrush(Qt::white);
            const qreal w = size / 9.0;
            p.drawRoundedRect(QRectF(size / 2.0 - w / 2, size * 0.27, w, size * 0.3), w / 2, w / 2);
            p.drawEllipse(QRectF(size / 2.0 - w * 0.6, size * 0.64, w * 1.2, w * 1.2));
        }
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace SeverityStyle
