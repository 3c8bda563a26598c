// The headers nearly every translation unit below the views includes, compiled once per precompiled-header
// group (cmake/Precompiled.cmake). Qt Core and the standard library only: what a header here declares
// must not depend on a macro that differs between the targets sharing it.
#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVariant>
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>
