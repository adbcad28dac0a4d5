// A sweep's results as one table.
#include "output/sweep_table.hpp"

#include <cmath>
#include <limits>
#include <map>

namespace zs::output {
namespace {

/// Every scalar of `j`, nested keys joined with '.'; arrays are left out (summary.json keeps them).
void flatten(const nlohmann::json& j, const std::string& prefix,
             std::vector<std::pair<std::string, nlohmann::json>>& out) {
  for (const auto& [key, value] : j.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object())
      flatten(value, name, out);
    else if (!value.is_array())
      out.emplace_back(name, value);
  }
}

SweepColumn::Type type_of(const std::vector<const nlohmann::json*>& cells) {
  bool any = false, integers = true, numbers = true;
  for (const auto* c : cells) {
    if (c == nullptr || c->is_null()) {
      integers = false;  // a missing integer is NaN, so the column is real
      continue;
    }
    any = true;
    if (!(c->is_number_integer() || c->is_boolean())) integers = false;
    if (!(c->is_number() || c->is_boolean())) numbers = false;
  }
  if (!any || !numbers) return any && !numbers ? SweepColumn::Type::kText : SweepColumn::Type::kReal;
  return integers ? SweepColumn::Type::kInteger : SweepColumn::Type::kReal;
}

SweepColumn column_of(std::string name, std::string doc, const std::vector<const nlohmann::json*>& cells) {
  SweepColumn col{std::move(name), type_of(cells), std::move(doc), {}, {}, {}};
  for (const auto* c : cells) {
    const bool missing = c == nullptr || c->is_null();
    switch (col.type) {
      case SweepColumn::Type::kInteger:
        col.integers.push_back(c->is_boolean() ? c->get<bool>() : c->get<int64_t>());
        break;
      case SweepColumn::Type::kReal:
        col.reals.push_back(missing           ? std::numeric_limits<double>::quiet_NaN()
                            : c->is_boolean() ? double(c->get<bool>())
                                              : c->get<double>());
        break;
      case SweepColumn::Type::kText:
        col.texts.push_back(missing ? "" : c->is_string() ? c->get<std::string>() : c->dump());
        break;
    }
  }
  return col;
}

SweepColumn axis_column(const scenario::SweepAxis& axis, const scenario::SweepPlan& plan, size_t a) {
  std::vector<nlohmann::json> cells;
  for (const auto& p : plan.points) {
    const nlohmann::json& v = p.values[a];
    const auto x = scenario::is_quantity(axis.kind) ? scenario::numeric_value(axis.kind, v) : std::nullopt;
    cells.push_back(x ? nlohmann::json(*x) : v.is_object() || v.is_array() ? nlohmann::json(v.dump()) : v);
  }
  std::vector<const nlohmann::json*> ptrs;
  for (const auto& c : cells) ptrs.push_back(&c);
  return column_of(axis.name + scenario::column_unit_suffix(axis.kind),
                   "axis: the value set at " + axis.pointer +
                       (scenario::is_quantity(axis.kind) ? " (in SI units, as the suffix says)" : ""),
                   ptrs);
}

}  // namespace

SweepTable sweep_table(const scenario::SweepPlan& plan, const std::vector<nlohmann::json>& records) {
  SweepTable t;
  const size_t n = records.size();
  std::vector<nlohmann::json> index(n);
  for (size_t i = 0; i < n; ++i) index[i] = static_cast<int64_t>(i);
  std::vector<const nlohmann::json*> cells(n);
  for (size_t i = 0; i < n; ++i) cells[i] = &index[i];
  t.columns.push_back(column_of("point", "the point's index, in the order the spec lists its points", cells));
  for (size_t a = 0; a < plan.spec.axes.size(); ++a)
    t.columns.push_back(axis_column(plan.spec.axes[a], plan, a));
  for (const char* key : {"status", "error"}) {
    for (size_t i = 0; i < n; ++i) cells[i] = records[i].contains(key) ? &records[i].at(key) : nullptr;
    SweepColumn c = column_of(
        key,
        std::string(key) == "status"
            ? "ok, invalid (the scenario was refused) or failed (the point's process ended without a result)"
            : "the one-line error of an invalid or failed point",
        cells);
    c.type = SweepColumn::Type::kText;
    if (c.texts.empty()) c.texts.assign(n, "");
    t.columns.push_back(std::move(c));
  }
  // Summary scalars: names in first-seen order over the points, values by name.
  std::vector<std::string> names;
  std::vector<std::map<std::string, nlohmann::json>> flat(n);
  for (size_t i = 0; i < n; ++i) {
    if (!records[i].contains("summary")) continue;
    std::vector<std::pair<std::string, nlohmann::json>> scalars;
    flatten(records[i].at("summary"), "", scalars);
    for (auto& [name, value] : scalars) {
      if (!flat[i].count(name) && std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(name);
      flat[i][name] = std::move(value);
    }
  }
  for (const auto& name : names) {
    for (size_t i = 0; i < n; ++i) {
      const auto it = flat[i].find(name);
      cells[i] = it == flat[i].end() ? nullptr : &it->second;
    }
    t.columns.push_back(column_of(name, "summary.json: " + name, cells));
  }
  for (const auto& r : records) {
    t.configs.push_back(r.contains("config") ? r.at("config").dump() : "");
    t.summaries.push_back(r.contains("summary") ? r.at("summary").dump() : "");
  }
  return t;
}

namespace {

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string real_text(double x) {
  if (std::isnan(x)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

}  // namespace

std::string sweep_csv(const SweepTable& table) {
  std::string out;
  for (size_t c = 0; c < table.columns.size(); ++c) out += (c ? "," : "") + csv_cell(table.columns[c].name);
  out += "\n";
  for (size_t r = 0; r < table.rows(); ++r) {
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const auto& col = table.columns[c];
      if (c) out += ",";
      switch (col.type) {
        case SweepColumn::Type::kInteger:
          out += std::to_string(col.integers[r]);
          break;
        case SweepColumn::Type::kReal:
          out += real_text(col.reals[r]);
          break;
        case SweepColumn::Type::kText:
          out += csv_cell(col.texts[r]);
          break;
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace zs::output
