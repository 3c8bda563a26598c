#pragma once

#include <QFont>
#include <QHash>
#include <QStaticText>
#include <QStyledItemDelegate>

// An item view's cells painted as Qt's own delegate paints them, but with each cell's text laid out once and
// kept (elided to its width, as QStaticText), not laid out again at every paint. Qt's style lays a cell's
// text out four times a paint (three times to find the text's rectangle, once to draw it) and shapes it each
// time with HarfBuzz: in a list of a thousand klusters whose rows change every second, that was most of the
// window's paints. A cell the cache cannot draw as Qt would (paint() names them: wrapped or several lines,
// right to left, trailing spaces, an elided line not aligned left, ...) is painted by Qt.
class CachedTextDelegate : public QStyledItemDelegate
{
    Q_DISABLE_COPY_MOVE(CachedTextDelegate)

public:
    explicit CachedTextDelegate(QObject *parent = nullptr);

    void paint(
        QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    // How many laid-out texts are kept (for tests: a repaint with nothing changed adds none).
    qsizetype cached() const { return m_cache.size(); }

    enum
    {
        MostKept = 4096 // more than any screen shows at once; past it the cache starts again
    };

private:
    struct Key
    {
        QString text;
        QFont font;
        int width = 0;
        Qt::TextElideMode elide = Qt::ElideRight;
        bool operator==(const Key &other) const
        {
            return width == other.width && elide == other.elide && text == other.text && font == other.font;
        }
    };
    friend size_t qHash(const Key &key, size_t seed)
    {
        return qHashMulti(seed, key.text, key.font, key.width);
    }
    struct Shaped
    {
        QStaticText text;
        qreal width = 0; // the whole text's: whether it fits, and where a line that fits is aligned
        int height = 0;
    };
    const Shaped &shaped(const Key &key) const;

    mutable QHash<Key, Shaped> m_cache;
};
