#pragma once

#include <QByteArray>
#include <QPair>
#include <optional>

// HTTP basic authentication as the exporter checks it (webconfig.h's basic_auth_users): bcrypt hashes, as the
// Prometheus exporters take them, checked with the system's crypt (libxcrypt).
namespace BasicAuth {

// Whether `password` is the one `hash` (bcrypt, $2a$/$2b$/$2y$) was made from, with the system's crypt.
// Slow by design (a cost of 10: tens of milliseconds): the exporter runs it off its serving thread.
bool verify(const QByteArray &hash, const QByteArray &password);
// Whether `hash` is a bcrypt hash the system's crypt reads ($2?$NN$ and 53 characters).
bool isBcryptHash(const QByteArray &hash);
// A bcrypt hash of `password` at `cost` (4 to 31) with a fresh salt; empty when the system cannot make one.
QByteArray hash(const QByteArray &password, int cost = 10);
// The user and password of an `Authorization: Basic …` header's value; nullopt when it is none.
std::optional<QPair<QByteArray, QByteArray>> credentials(const QByteArray &authorization);

} // namespace BasicAuth
