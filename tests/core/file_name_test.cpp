// Names that become file or folder names, and user text echoed in one line.
#include <doctest/doctest.h>

#include "core/file_name.hpp"

using zs::core::file_name_problem;
using zs::core::quoted_for_message;

TEST_CASE("a file name is one portable path component") {
  for (const char* ok : {"a", "moe-10t-512k", "gpt3-1.3b", "Run_2"}) CHECK_FALSE(file_name_problem(ok));
  CHECK(*file_name_problem("") == "an empty name");
  CHECK(*file_name_problem("..") == "a name starting with '.'");
  CHECK(*file_name_problem(".hidden") == "a name starting with '.'");
  CHECK(*file_name_problem("-rf") == "a name starting with '-'");
  CHECK(*file_name_problem("a/b") == "a name containing \"/\"");
  CHECK(*file_name_problem("a b") == "a name containing \" \"");
  CHECK(*file_name_problem(std::string("a\0b", 3)) == "a name containing \"\\x00\"");
  CHECK(*file_name_problem(std::string(129, 'x')) == "a name of 129 characters");
  CHECK_FALSE(file_name_problem(std::string(128, 'x')));
}

TEST_CASE("echoed text stays on one line and is cut") {
  CHECK(quoted_for_message("two\nlines") == "\"two\\nlines\"");
  CHECK(quoted_for_message("q\"b\\") == "\"q\\\"b\\\\\"");
  CHECK(quoted_for_message("\xff") == "\"\\xFF\"");
  CHECK(quoted_for_message(std::string(100, 'a'), 4) == "\"aaaa\"... (100 bytes)");
}
