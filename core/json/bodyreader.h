#pragma once

#include "core/json/jsonreader.h"
#include "core/json/simdjsonreader.h"

#include <QByteArray>
#include <QString>
#include <optional>

// Reading a response body from its bytes: with simdjson when it reads the body (7× faster on the large
// lists), else with Qt, which says why the body is refused or reads what simdjson does not. `read` is a
// template over the reader (JsonReader, SimdJsonReader): one reading, the same results and errors. Only the
// parsers' own sources include this (simdjson is the core's private dependency).
namespace JsonBodies {

// The bytes a body needs beyond itself for simdjson (reserved by whoever assembles one).
constexpr qsizetype Padding = qsizetype(simdjson::SIMDJSON_PADDING);

// This thread's parser, kept for the next body: buffers new for each body cost more than reading it (their
// pages are faulted in afresh, some 30 MB for a 13 MB body). Pages and chunks (a few MB each) are what a
// refresh reads again and again; a parser grown past 8 MiB by a whole list read once (the nodes from the
// watch cache, which ignores `limit`: some 45 MB resident for 5,000 nodes) is let go when the reading ends.
class KeptParser
{
public:
    KeptParser();
    ~KeptParser();
    KeptParser(const KeptParser &) = delete;
    KeptParser &operator=(const KeptParser &) = delete;
    simdjson::dom::parser &parser() { return *m_parser; }

private:
    simdjson::dom::parser *m_parser;
};

template<typename Read> auto read(const QString &source, const QByteArray &body, Read read)
{
    {
        KeptParser kept;
        try {
            if (const std::optional<SimdJsonReader> root = SimdJsonReader::parse(kept.parser(), source, body))
                return read(*root);
        } catch (const SimdJsonReader::QtDecides &) { }
    }
    return read(JsonReader(source, parseJsonObject(source, body)));
}

} // namespace JsonBodies
