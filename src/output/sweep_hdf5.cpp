// Writes a sweep's table as one HDF5 file with HDF5's C API.
#include <cstring>

#include <hdf5.h>

#include "core/version.hpp"
#include "output/hdf5_file.hpp"
#include "output/sweep_table.hpp"

namespace zs::output {
namespace {

size_t cell_size(SweepColumn::Type t) {
  return t == SweepColumn::Type::kText ? sizeof(const char*) : 8;
}

void write_points(hid_t file, const SweepTable& table) {
  size_t row = 0;
  std::vector<size_t> offsets;
  for (const auto& c : table.columns) {
    offsets.push_back(row);
    row += cell_size(c.type);
  }
  Hdf5Handle text = hdf5_text_type();
  Hdf5Handle type(H5Tcreate(H5T_COMPOUND, row), H5Tclose, "the points' row type");
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const auto& col = table.columns[c];
    const hid_t member = col.type == SweepColumn::Type::kInteger ? H5T_NATIVE_INT64
                         : col.type == SweepColumn::Type::kReal  ? H5T_NATIVE_DOUBLE
                                                                 : hid_t(text);
    hdf5_check(H5Tinsert(type, col.name.c_str(), offsets[c], member), col.name.c_str());
  }
  std::vector<unsigned char> data(row * table.rows());
  for (size_t r = 0; r < table.rows(); ++r)
    for (size_t c = 0; c < table.columns.size(); ++c) {
      unsigned char* at = data.data() + r * row + offsets[c];
      const auto& col = table.columns[c];
      if (col.type == SweepColumn::Type::kInteger) std::memcpy(at, &col.integers[r], 8);
      if (col.type == SweepColumn::Type::kReal) std::memcpy(at, &col.reals[r], 8);
      if (col.type == SweepColumn::Type::kText) {
        const char* p = col.texts[r].c_str();
        std::memcpy(at, &p, sizeof p);
      }
    }
  const hsize_t n = table.rows();
  Hdf5Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, "a space");
  Hdf5Handle props = hdf5_no_times();
  Hdf5Handle set(H5Dcreate2(file, "points", type, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose,
                 "points");
  hdf5_check(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), "points");
}

nlohmann::json schema(const SweepTable& table) {
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : table.columns)
    columns.push_back({{"name", c.name},
                       {"type", c.type == SweepColumn::Type::kInteger ? "int64"
                                : c.type == SweepColumn::Type::kReal  ? "float64 (NaN: no value)"
                                                                      : "UTF-8 string"},
                       {"doc", c.doc}});
  return {
      {"points", columns},
      {"configs", "the resolved configuration of each point (config.json), JSON text; empty when refused"},
      {"summaries", "summary.json of each point, JSON text; empty when it has no result"}};
}

void write_file(hid_t file, const scenario::SweepPlan& plan, const SweepTable& table) {
  write_points(file, table);
  write_hdf5_texts(file, "configs", table.configs);
  write_hdf5_texts(file, "summaries", table.summaries);
  write_hdf5_text_attribute(file, "name", plan.spec.name);
  write_hdf5_text_attribute(file, "sweep_file", plan.spec.file);
  write_hdf5_text_attribute(file, "base_scenario", plan.spec.base_path);
  write_hdf5_text_attribute(file, "spec", plan.spec.resolved.dump());
  write_hdf5_text_attribute(file, "schema", schema(table).dump());
  write_hdf5_text_attribute(file, "zettasim_version", core::kVersion);
}

}  // namespace

void write_sweep_hdf5(const std::string& path, const scenario::SweepPlan& plan, const SweepTable& table) {
  write_hdf5_atomically(path, [&](hid_t file) { write_file(file, plan, table); });
}

}  // namespace zs::output
