// Generator of machines made of pods (tori, optical blocks, GPU clusters) joined by a data-centre network.
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Builds `pods` copies of the pod that "pod" describes (a topology of any built-in generator but
/// "pods": its "generator" and that generator's keys), named "pod<k>/<name in the pod>", units in
/// topology order pod by pod. They are joined by a data-centre network ("dcn"): every unit has a link
/// of the "nic_link" model at width 1 / units_per_nic (its share of a NIC its host's units share) to
/// its pod's DCN switch "pod<k>/dcn", and each pod's DCN switch has one aggregate uplink to the core
/// switch "dcn-core" of (units / units_per_nic) NICs' bandwidth over "oversubscription", the core
/// standing for a non-blocking data-centre fabric. Every node of pod k is in pod k (Topology::pod):
/// routes between two of its nodes stay in the pod, so only traffic between pods crosses the DCN.
void generate_pods(core::ParamReader& params, ModelBinder& binder, Machine& machine);
/// The keys this generator reads, declared once.
const core::ParamTable& pods_params();

}  // namespace zs::topology
