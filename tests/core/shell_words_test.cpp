// Shell words and comments: bash itself reads back each quoted word as the one word it was.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/shell_words.hpp"

using zs::core::comment_text;
using zs::core::shell_quoted;

namespace {

/// What bash prints for `script` (its stdout).
std::string bash_output(const std::string& script) {
  const std::string command = "bash -c " + shell_quoted(script);
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  ::pclose(pipe);
  return out;
}

}  // namespace

TEST_CASE("a quoted word is one word with its bytes, whatever the shell would make of them") {
  const std::string hostile[] = {"plain-word_1.py",     "two words",  "it's", "$(touch pwned)",  "`id`",
                                 "a\nb; rm -rf /tmp/x", "\"q\" \\ *", "",     "${HOME}'$IFS'''", "-n"};
  for (const std::string& word : hostile) {
    CAPTURE(word);
    // printf's %s gets exactly one argument: the word, byte for byte, and nothing runs.
    CHECK(bash_output("printf '[%s]' " + shell_quoted(word)) == "[" + word + "]");
  }
  CHECK(shell_quoted("pretrain_gpt.py") == "pretrain_gpt.py");
  CHECK(shell_quoted("a b") == "'a b'");
}

TEST_CASE("comment text holds no line break, so no input ends a comment and starts a command") {
  const std::string text = comment_text("name\n$(touch pwned)\r\x01");
  CHECK(text.find('\n') == std::string::npos);
  CHECK(text.find('\r') == std::string::npos);
  CHECK(text == "name\\n$(touch pwned)\\x0D\\x01");
  CHECK(bash_output("# " + text + "\necho ran") == "ran\n");
}

TEST_CASE("variable names and long options a script writes as they are") {
  CHECK(zs::core::is_variable_name("NCCL_ALGO"));
  CHECK(zs::core::is_variable_name("_x1"));
  for (const char* bad : {"", "1X", "A-B", "A=B", "A B", "A;B"}) CHECK_FALSE(zs::core::is_variable_name(bad));
  CHECK(zs::core::is_long_option("--tensor-model-parallel-size"));
  for (const char* bad : {"-x", "--", "---a", "--A", "--a b", "--a;id", "--a=1"})
    CHECK_FALSE(zs::core::is_long_option(bad));
}

TEST_CASE("an argument list splits into words as the shell would read it, and nothing in it is expanded") {
  using V = std::vector<std::string>;
  CHECK(zs::core::split_shell_words("--a 1  --b\t'x y' \"q \\\" \\\\ $(id)\" \\\n --c=2 # --d\n--e") ==
        V{"--a", "1", "--b", "x y", "q \" \\ $(id)", "--c=2", "--e"});
  CHECK(zs::core::split_shell_words("a'b'\"c\"") == V{"abc"});  // quoted parts join their word
  CHECK(zs::core::split_shell_words("") == V{});
  CHECK(zs::core::split_shell_words("a#b") == V{"a#b"});  // # comments only at a word's start
  CHECK_THROWS_AS(zs::core::split_shell_words("--data-path 'open"), std::invalid_argument);
  CHECK_THROWS_AS(zs::core::split_shell_words("\"open"), std::invalid_argument);
  // What shell_quoted writes reads back as the same word.
  for (const char* w : {"plain", "two words", "it's", "[0]*3+[1]*58", "$HOME", "a\nb"})
    CHECK(zs::core::split_shell_words(zs::core::shell_quoted(w)) == V{w});
}
