// Anchor of the zs_pch target: the precompiled headers every zettasim target reuses (CMakeLists.txt).
