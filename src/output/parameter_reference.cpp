// Printing parameter tables as text columns and as Markdown.
#include "output/parameter_reference.hpp"

#include <algorithm>
#include <array>

#include "output/text_columns.hpp"

namespace zs::output {
namespace {

/// The description column: the doc, and whether a model file must cite the value.
std::string description(const core::Param& p) {
  return p.cited ? p.doc + " (source required)" : p.doc;
}

std::array<std::string, 5> cells(const core::Param& p) {
  return {p.name, p.unit(), p.default_text(), p.range(), description(p)};
}

/// `text` safe in a Markdown table cell.
std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

}  // namespace

std::string parameter_type_list(const std::vector<const core::ParamTable*>& tables) {
  size_t width = 0;
  for (const auto* t : tables) width = std::max(width, t->type().size() + 2);
  std::string out;
  for (const auto* t : tables) out += "  " + column(t->type(), width) + t->doc() + "\n";
  return out;
}

std::string parameter_table_text(const core::ParamTable& table) {
  const std::array<std::string, 5> header{"parameter", "unit", "default", "range", "description"};
  std::array<size_t, 5> width{};
  for (size_t c = 0; c < 4; ++c) width[c] = header[c].size() + 2;
  for (const auto& p : table.params()) {
    const auto row = cells(p);
    for (size_t c = 0; c < 4; ++c) width[c] = std::max(width[c], row[c].size() + 2);
  }
  std::string out = table.type() + ": " + table.doc() + "\n";
  auto line = [&](const std::array<std::string, 5>& row) {
    out += "  ";
    for (size_t c = 0; c < 4; ++c) out += column(row[c], width[c]);
    out += row[4] + "\n";
  };
  line(header);
  for (const auto& p : table.params()) line(cells(p));
  return out;
}

std::string parameter_reference_markdown(const std::vector<const core::ParamTable*>& tables) {
  std::string out =
      "# Parameters\n\n"
      "Every key of the model, failure-rate, topology and transformer files zettasim reads, with its unit, "
      "its default\n"
      "(\"required\": the file must set it; \"optional\": left out, the feature it describes is off), the\n"
      "values accepted and what it means. A model file cites the published source of every value it sets\n"
      "under `sources` (\"source required\"). The same tables read the files, check them, fill in the\n"
      "defaults that `config.json` records and word the error messages; `zettasim params [TYPE]` prints\n"
      "them, and `zettasim params --markdown` prints this page.\n\n"
      "Units are written with the value, as in `\"400Gb/s\"`: a bare number is refused where a unit is\n"
      "due. Sizes take SI (kB, MB, GB, ...) or binary (KiB, MiB, GiB, ...) prefixes, a lower-case `b` is a\n"
      "bit, times are ps, ns, us, ms, s, min, h or d.\n";
  for (const auto* t : tables) {
    out += "\n## `" + t->type() + "`\n\n" + t->doc() + ".\n\n";
    out += "| parameter | unit | default | range | description |\n|---|---|---|---|---|\n";
    for (const auto& p : t->params()) {
      const auto row = cells(p);
      out += "| `" + markdown_cell(row[0]) + "` |";
      for (size_t c = 1; c < 5; ++c) out += " " + markdown_cell(row[c]) + " |";
      out += "\n";
    }
  }
  return out;
}

}  // namespace zs::output
