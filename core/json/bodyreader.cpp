#include "core/json/bodyreader.h"

namespace {

constexpr size_t KeptParserCapacity = size_t(8) << 20;

simdjson::dom::parser &threadParser()
{
    thread_local simdjson::dom::parser parser;
    return parser;
}

} // namespace

JsonBodies::KeptParser::KeptParser()
    : m_parser(&threadParser())
{ }

JsonBodies::KeptParser::~KeptParser()
{
    if (m_parser->capacity() > KeptParserCapacity)
        *m_parser = simdjson::dom::parser();
}
