#include "services/monitoring/basicauth.h"

#include <cctype>
#include <crypt.h>
#include <memory>

namespace BasicAuth {

bool isBcryptHash(const QByteArray &hash)
{
    // $2a$, $2b$ or $2y$, a two-digit cost from 04 to 31, then 22 characters of salt and 31 of hash.
    if (hash.size() != 60 || !hash.startsWith("$2") || hash[3] != '$' || hash[6] != '$')
        return false;
    if (hash[2] != 'a' && hash[2] != 'b' && hash[2] != 'y')
        return false;
    const int cost = (hash[4] - '0') * 10 + (hash[5] - '0');
    if (!std::isdigit(static_cast<unsigned char>(hash[4]))
        || !std::isdigit(static_cast<unsigned char>(hash[5])) || cost < 4 || cost > 31)
        return false;
    for (qsizetype i = 7; i < hash.size(); ++i) {
        const char c = hash[i];
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '/')
            return false;
    }
    return true;
}

bool verify(const QByteArray &hash, const QByteArray &password)
{
    if (!isBcryptHash(hash) || password.contains('\0') || password.size() > 4096)
        return false;
    auto data = std::make_unique<crypt_data>();
    const char *made = crypt_rn(password.constData(), hash.constData(), data.get(), int(sizeof(crypt_data)));
    if (!made || made[0] == '*')
        return false;
    const QByteArray result(made);
    // In constant time over the hash's length: a timing difference tells nothing of how much matched.
    if (result.size() != hash.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < hash.size(); ++i)
        diff |= static_cast<unsigned char>(result[i] ^ hash[i]);
    return diff == 0;
}

QByteArray hash(const QByteArray &password, int cost)
{
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    if (!crypt_gensalt_rn("$2b$", static_cast<unsigned long>(cost), nullptr, 0, setting, sizeof setting))
        return {};
    auto data = std::make_unique<crypt_data>();
    const char *made = crypt_rn(password.constData(), setting, data.get(), int(sizeof(crypt_data)));
    if (!made || made[0] == '*')
        return {};
    return QByteArray(made);
}

std::optional<QPair<QByteArray, QByteArray>> credentials(const QByteArray &authorization)
{
    const QByteArray value = authorization.trimmed();
    if (value.size() < 7 || value.left(6).toLower() != "basic ")
        return std::nullopt;
    const QByteArray::FromBase64Result decoded
        = QByteArray::fromBase64Encoding(value.mid(6).trimmed(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    const qsizetype colon = decoded.decoded.indexOf(':');
    if (colon < 0)
        return std::nullopt;
    return qMakePair(decoded.decoded.left(colon), decoded.decoded.mid(colon + 1));
}

} // namespace BasicAuth
