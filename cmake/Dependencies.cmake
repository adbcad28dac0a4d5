# Finds zettasim's dependencies, all from Debian packages; a missing one names the package to install.

function(zs_require found debian_package what)
  if(NOT ${found})
    message(FATAL_ERROR "zettasim needs ${what}: install the Debian package '${debian_package}' "
                        "(apt-get install ${debian_package}), or run ./dev build, which installs what is missing.")
  endif()
endfunction()

find_package(PkgConfig QUIET)
zs_require(PkgConfig_FOUND pkg-config "pkg-config (to find SimGrid)")

pkg_check_modules(SimGrid QUIET IMPORTED_TARGET simgrid>=3.32)
zs_require(SimGrid_FOUND libsimgrid-dev "SimGrid 3.32 or newer")

find_package(nlohmann_json 3.10 QUIET CONFIG)
zs_require(nlohmann_json_FOUND nlohmann-json3-dev "nlohmann/json 3.10 or newer")

find_package(CLI11 2.0 QUIET CONFIG)
zs_require(CLI11_FOUND libcli11-dev "CLI11 2.0 or newer")

find_package(doctest 2.4 QUIET CONFIG)
zs_require(doctest_FOUND doctest-dev "doctest 2.4 or newer")

# Chakra execution traces are protobuf: Debian's protoc generates the C++ code from src/chakra/et_def.proto.
find_package(Protobuf 3.12 QUIET)
zs_require(Protobuf_FOUND libprotobuf-dev "Protocol Buffers 3.12 or newer (for Chakra traces)")
zs_require(Protobuf_PROTOC_EXECUTABLE protobuf-compiler "protoc (for Chakra traces)")

# Sweep results are one HDF5 file, written with HDF5's C API (Debian's serial build).
pkg_check_modules(HDF5 QUIET IMPORTED_TARGET hdf5)
zs_require(HDF5_FOUND libhdf5-dev "HDF5 (for sweep results)")
