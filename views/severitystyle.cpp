#include "views/severitystyle.h"

#include <QApplication>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QStyle>

namespace SeverityStyle {

QColor colour(int severity)
{
    switch (severity) {
    case 0: return QColor(220, 50, 47);
    case 1: return QColor(230, 160, 0);
    case 2: return QColor(38, 139, 210);
    default: return QColor(60, 150, 80);
    }
}

QColor tint(int severity)
{
    switch (severity) {
    case 0: return QColor(220, 50, 47, 70);
    case 1: return QColor(230, 160, 0, 70);
    default: return QColor();
    }
}

QIcon icon(int severity)
{
    QStyle *style = QApplication::style();
    switch (severity) {
    case 0: return style->standardIcon(QStyle::SP_MessageBoxCritical);
    case 1: return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case 2: return style->standardIcon(QStyle::SP_MessageBoxInformation);
    default: return QIcon();
    }
}

QString word(int severity)
{
    switch (severity) {
    case 0: return QApplication::translate("SeverityStyle", "critical");
    case 1: return QApplication::translate("SeverityStyle", "warning");
    case 2: return QApplication::translate("SeverityStyle", "info");
    default: return QApplication::translate("SeverityStyle", "healthy");
    }
}

QColor alarmText(const QPalette &palette)
{
    // Dark red on a light base, light red on a dark one.
    return palette.color(QPalette::Base).lightness() > 128 ? QColor(183, 28, 28) : QColor(255, 138, 128);
}

QIcon statusIcon(int severity)
{
    QIcon icon;
    for (int size : {16, 22, 32, 48, 64}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        const qreal m = size / 8.0;
        p.setPen(QPen(QColor(30, 30, 30, 160), qMax(1.0, size / 16.0)));
        p.setBrush(colour(severity));
        p.drawEllipse(QRectF(m, m, size - 2 * m, size - 2 * m));
        if (severity == 0 || severity == 1) {  // an exclamation mark, never colour alone
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
