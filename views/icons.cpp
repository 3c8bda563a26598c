#include "views/icons.h"

#include <QHash>

namespace Icons {

QIcon named(const QString &name)
{
    static QHash<QString, QIcon> loaded; // the GUI thread's, loaded once each
    auto it = loaded.find(name);
    if (it == loaded.end()) {
        QIcon icon;
        for (int size : { 16, 22, 32, 48 })
            icon.addFile(
                QStringLiteral(":/flightdeck/icons/ui/%1/%2.png").arg(size).arg(name), QSize(size, size));
        it = loaded.insert(name, icon);
    }
    return it.value();
}

} // namespace Icons
