// HDF5 helpers shared by the sweep table and the time series writers.
#include "output/hdf5_file.hpp"

#include <filesystem>
#include <stdexcept>

#include <unistd.h>

namespace zs::output {

Hdf5Handle::Hdf5Handle(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(id), close_(close) {
  if (id_ < 0) throw std::runtime_error(std::string("HDF5: cannot create ") + what);
}

Hdf5Handle::~Hdf5Handle() {
  if (id_ >= 0) close_(id_);
}

void hdf5_check(herr_t status, const char* what) {
  if (status < 0) throw std::runtime_error(std::string("HDF5: cannot write ") + what);
}

Hdf5Handle hdf5_text_type() {
  Hdf5Handle t(H5Tcopy(H5T_C_S1), H5Tclose, "a string type");
  hdf5_check(H5Tset_size(t, H5T_VARIABLE), "a string type");
  hdf5_check(H5Tset_cset(t, H5T_CSET_UTF8), "a string type");
  return t;
}

Hdf5Handle hdf5_no_times() {
  Hdf5Handle p(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset properties");
  hdf5_check(H5Pset_obj_track_times(p, false), "dataset properties");
  return p;
}

void write_hdf5_text_attribute(hid_t at, const char* name, const std::string& value) {
  Hdf5Handle type = hdf5_text_type();
  Hdf5Handle space(H5Screate(H5S_SCALAR), H5Sclose, "a scalar space");
  Hdf5Handle attr(H5Acreate2(at, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  const char* p = value.c_str();
  hdf5_check(H5Awrite(attr, type, &p), name);
}

void write_hdf5_texts(hid_t at, const char* name, const std::vector<std::string>& texts) {
  Hdf5Handle type = hdf5_text_type();
  const hsize_t n = texts.size();
  Hdf5Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, "a space");
  Hdf5Handle props = hdf5_no_times();
  Hdf5Handle set(H5Dcreate2(at, name, type, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose, name);
  std::vector<const char*> ptrs;
  for (const auto& t : texts) ptrs.push_back(t.c_str());
  hdf5_check(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), name);
}

void write_hdf5_reals(hid_t at, const char* name, const std::vector<hsize_t>& dims,
                      const std::vector<double>& values) {
  Hdf5Handle space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose, "a space");
  Hdf5Handle props = hdf5_no_times();
  hsize_t count = 1;
  for (hsize_t d : dims) count *= d;
  if (count >= 4096 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    // Chunks along the last axis (time, in the time series) of whole rows of the others.
    std::vector<hsize_t> chunk(dims);
    hsize_t rest = 1;
    for (size_t i = 0; i + 1 < dims.size(); ++i) rest *= dims[i];
    chunk.back() =
        std::max<hsize_t>(1, std::min<hsize_t>(dims.back(), (1u << 16) / std::max<hsize_t>(1, rest)));
    for (size_t i = 0; i + 1 < dims.size(); ++i) chunk[i] = std::max<hsize_t>(1, dims[i]);
    hdf5_check(H5Pset_chunk(props, int(chunk.size()), chunk.data()), name);
    hdf5_check(H5Pset_deflate(props, 4), name);
  }
  Hdf5Handle set(H5Dcreate2(at, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose,
                 name);
  if (count > 0)
    hdf5_check(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), name);
}

void write_hdf5_integers(hid_t at, const char* name, const std::vector<int64_t>& values) {
  const hsize_t n = values.size();
  Hdf5Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose, "a space");
  Hdf5Handle props = hdf5_no_times();
  Hdf5Handle set(H5Dcreate2(at, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose,
                 name);
  if (n > 0) hdf5_check(H5Dwrite(set, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), name);
}

Hdf5Handle create_hdf5_group(hid_t at, const char* name) {
  return Hdf5Handle(H5Gcreate2(at, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, name);
}

void write_hdf5_atomically(const std::string& path, const std::function<void(hid_t file)>& fill) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become exceptions here, not HDF5's own printing
  const std::string temp = path + ".tmp-" + std::to_string(::getpid());
  try {
    Hdf5Handle create(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "file properties");
    Hdf5Handle file(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, create, H5P_DEFAULT), H5Fclose, path.c_str());
    fill(file);
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

}  // namespace zs::output
