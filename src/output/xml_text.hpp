// Text made safe inside XML (GraphML, JUnit): element content and attribute values alike.
#pragma once

#include <string>

namespace zs::output {

/// `text` with & < > " ' as entities and control characters as spaces (XML 1.0 allows none but tab,
/// newline and carriage return, and attribute values normalize those to spaces anyway).
std::string xml_escaped(const std::string& text);

}  // namespace zs::output
