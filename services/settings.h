#pragma once

#include "services/connection.h"

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QVariant>

// One stored setting: its key, and what it reads as until it is set.
template<typename T> class Setting
{
public:
    Setting(QString key, T fallback = T())
        : m_key(std::move(key))
        , m_default(std::move(fallback))
    { }

    QString key() const { return m_key; }
    T value() const { return QSettings().value(m_key, QVariant::fromValue(m_default)).template value<T>(); }
    void setValue(const T &value) const { QSettings().setValue(m_key, QVariant::fromValue(value)); }

private:
    QString m_key;
    T m_default;
};

// Everything the console keeps between runs (QSettings of the organization
// "flightdeck"), each key named once with its default. The keys are those
// stored since the first release, so existing settings keep loading. Secrets
// are never kept here: they stay in the keychain.
namespace Settings {

Setting<QByteArray> windowGeometry(); // the window's size and place (QWidget::saveGeometry)
Setting<QByteArray> windowState(); // its toolbars (QMainWindow::saveState)
Setting<QByteArray> splitState(); // the sidebar's width (QSplitter::saveState)
Setting<QString> lastKluster(); // the kluster shown last, "<connection>/<kluster>"
// The klusters marked protected one by one, "<connection>/<kluster>" each (every repair asks for the name).
Setting<QStringList> protectedKlusters();
Setting<int> tab(); // the view shown last (0: the overview)
// A table's columns: order, widths, sort (QHeaderView::saveState), by the view's object name.
Setting<QByteArray> viewHeader(const QString &view);
// How many columns the table had when its header was saved (-1: before this was kept); a header saved with
// other columns is not restored.
Setting<int> viewColumns(const QString &view);
Setting<int> historyDays(); // how long the history keeps what it records (30 days)
Setting<int> historyMegabytes(); // how large the history file may grow (200 MB)
Setting<int> routeScope(); // which routes the Routes view shows (0: the kluster's own)
Setting<bool> findingsByIncident(); // the Findings view grouped by incident (off: one flat table)
Setting<QString> fleetGrouping(); // how the Fleet view groups its tiles ("connection", "state", "none")
Setting<QString> fleetLayout(); // the Fleet view's tiles or heat map ("auto", "tiles", "heatmap")
Setting<int> refreshMinutes(); // the auto-refresh interval, 0: off (5 minutes)
Setting<int> refreshConcurrency(); // klusters of one connection refreshed at once, 0: no bound (8)
// Requests in flight at once to one endpoint (one Nova, one Keystone), across every connection, 0: no bound
// (16)
Setting<int> requestsPerEndpoint();
Setting<bool> desktopNotifications(); // desktop notifications while watching (on)
Setting<bool> trayIcon(); // the tray icon while watching (on)

// The connections remembered between runs: names, clouds and flags, never a secret.
QList<ConnectionSpec> connections();
void setConnections(const QList<ConnectionSpec> &connections);

// Where the settings are stored.
QString fileName();

} // namespace Settings
