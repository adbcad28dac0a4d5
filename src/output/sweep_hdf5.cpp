// Writes a sweep's table as one HDF5 file with HDF5's C API.
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <hdf5.h>
#include <unistd.h>

#include "output/sweep_table.hpp"
#include "core/version.hpp"

namespace zs::output {
namespace {

/// An HDF5 identifier closed by `close` when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(id), close_(close) {
    if (id_ < 0) throw std::runtime_error(std::string("HDF5: cannot create ") + what);
  }
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

void check(herr_t status, const char* what) {
  if (status < 0) throw std::runtime_error(std::string("HDF5: cannot write ") + what);
}

Handle text_type() {
  Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "a string type");
  check(H5Tset_size(t, H5T_VARIABLE), "a string type");
  check(H5Tset_cset(t, H5T_CSET_UTF8), "a string type");
  return t;
}

/// Dataset creation without modification times, so the same table gives the same bytes.
Handle no_times() {
  Handle p(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset properties");
  check(H5Pset_obj_track_times(p, false), "dataset properties");
  return p;
}

void write_text_attribute(hid_t at, const char* name, const std::string& value) {
  Handle type = text_type();
  Handle space(H5Screate(H5S_SCALAR), H5Sclose, "a scalar space");
  Handle attr(H5Acreate2(at, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  const char* p = value.c_str();
  check(H5Awrite(attr, type, &p), name);
}

void write_texts(hid_t file, const char* name, const std::vector<std::string>& texts) {
  Handle type = text_type();
  const hsize_t n = texts.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, "a space");
  Handle props = no_times();
  Handle set(H5Dcreate2(file, name, type, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose, name);
  std::vector<const char*> ptrs;
  for (const auto& t : texts) ptrs.push_back(t.c_str());
  check(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), name);
}

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
  Handle text = text_type();
  Handle type(H5Tcreate(H5T_COMPOUND, row), H5Tclose, "the points' row type");
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const auto& col = table.columns[c];
    const hid_t member = col.type == SweepColumn::Type::kInteger ? H5T_NATIVE_INT64
                         : col.type == SweepColumn::Type::kReal  ? H5T_NATIVE_DOUBLE
                                                                 : hid_t(text);
    check(H5Tinsert(type, col.name.c_str(), offsets[c], member), col.name.c_str());
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
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, "a space");
  Handle props = no_times();
  Handle set(H5Dcreate2(file, "points", type, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose, "points");
  check(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), "points");
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

void write_file(const std::string& path, const scenario::SweepPlan& plan, const SweepTable& table) {
  Handle create(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "file properties");
  Handle file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, create, H5P_DEFAULT), H5Fclose, path.c_str());
  write_points(file, table);
  write_texts(file, "configs", table.configs);
  write_texts(file, "summaries", table.summaries);
  write_text_attribute(file, "name", plan.spec.name);
  write_text_attribute(file, "sweep_file", plan.spec.file);
  write_text_attribute(file, "base_scenario", plan.spec.base_path);
  write_text_attribute(file, "spec", plan.spec.resolved.dump());
  write_text_attribute(file, "schema", schema(table).dump());
  write_text_attribute(file, "zettasim_version", core::kVersion);
}

}  // namespace

void write_sweep_hdf5(const std::string& path, const scenario::SweepPlan& plan, const SweepTable& table) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become exceptions here, not HDF5's own printing
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  try {
    write_file(temp, plan, table);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(temp, ec);
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw std::runtime_error("cannot write " + path + ": " + ec.message());
  }
}

bool is_sweep_hdf5(const std::string& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  if (H5Fis_hdf5(path.c_str()) <= 0) return false;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return false;
  const bool ours = H5Aexists(file, "zettasim_version") > 0 && H5Lexists(file, "points", H5P_DEFAULT) > 0;
  H5Fclose(file);
  return ours;
}

}  // namespace zs::output
