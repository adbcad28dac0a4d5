// Megatron-LM's flags outside the rules, each with why it is ignored or refused.
#include "workload/megatron_flag_notes.hpp"

namespace zs::workload::megatron {

const std::vector<FlagNote>& ignored_flags() {
  static const std::vector<FlagNote> notes = {
      {"--save-interval", "checkpointing is the scenario's reliability section"},
      {"--save", "a checkpoint folder"},
      {"--load", "a checkpoint folder"},
      {"--ckpt-format", "checkpointing is the scenario's reliability section"},
      {"--no-load-optim", "a checkpoint option"},
      {"--no-load-rng", "a checkpoint option"},
      {"--train-iters", "the run's length, not an iteration's time"},
      {"--train-samples", "the run's length, not an iteration's time"},
      {"--exit-duration-in-mins", "the run's length, not an iteration's time"},
      {"--exit-interval", "the run's length, not an iteration's time"},
      {"--lr", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--min-lr", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--lr-decay-style", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--lr-decay-iters", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--lr-decay-samples", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--lr-warmup-iters", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--lr-warmup-samples", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--lr-warmup-fraction", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--weight-decay", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--adam-beta1", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--adam-beta2", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--adam-eps", "the optimizer's hyperparameters, no part of an iteration's time"},
      {"--init-method-std", "initialization, no part of an iteration's time"},
      {"--seed", "the training run's seed (expert routing draws from the scenario's)"},
      {"--data-path", "the data set, no part of an iteration's time as modelled"},
      {"--split", "the data set, no part of an iteration's time as modelled"},
      {"--mock-data", "the data set, no part of an iteration's time as modelled"},
      {"--dataloader-type", "the data set, no part of an iteration's time as modelled"},
      {"--num-workers", "the data set, no part of an iteration's time as modelled"},
      {"--tokenizer-type", "the tokenizer (the model's vocab gives the vocabulary)"},
      {"--tokenizer-model", "the tokenizer (the model's vocab gives the vocabulary)"},
      {"--vocab-file", "the tokenizer (the model's vocab gives the vocabulary)"},
      {"--merge-file", "the tokenizer (the model's vocab gives the vocabulary)"},
      {"--make-vocab-size-divisible-by", "the tokenizer (the model's vocab gives the vocabulary)"},
      {"--log-interval", "logging"},
      {"--log-throughput", "logging"},
      {"--log-timers-to-tensorboard", "logging"},
      {"--tensorboard-dir", "logging"},
      {"--wandb-project", "logging"},
      {"--wandb-exp-name", "logging"},
      {"--eval-interval", "evaluation runs between iterations, not in one"},
      {"--eval-iters", "evaluation runs between iterations, not in one"},
      {"--distributed-backend", "NCCL is what the planner lays out"},
      {"--distributed-timeout-minutes", "a timeout"},
      {"--use-mcore-models", "Megatron-Core's models are what zettasim models"},
      {"--transformer-impl", "Megatron-Core's models are what zettasim models"},
      {"--norm-epsilon", "a numerical constant"},
      {"--rotary-base", "a numerical constant"},
      {"--rotary-percent", "a numerical constant"},
      {"--no-rope-fusion", "a kernel fusion (element-wise work is modelled per pass)"},
      {"--no-masked-softmax-fusion", "a kernel fusion (element-wise work is modelled per pass)"},
      {"--no-bias-gelu-fusion", "a kernel fusion (element-wise work is modelled per pass)"},
      {"--no-bias-dropout-fusion", "a kernel fusion (element-wise work is modelled per pass)"},
      {"--attention-softmax-in-fp32", "a kernel's arithmetic"},
      {"--no-position-embedding", "rotary models keep no position embeddings as modelled"},
      {"--qk-layernorm",
       "query and key norms: a few parameters and element-wise work per layer, not counted"},
      {"--add-qkv-bias", "query, key and value biases: a few parameters per layer, not counted"},
      {"--moe-grouped-gemm", "a kernel choice (experts' matrix products are modelled per expert)"},
      {"--moe-permute-fusion", "a kernel fusion (element-wise work is modelled per pass)"},
      {"--moe-token-dispatcher-type", "dispatch is modelled as all-to-all"},
      {"--moe-router-load-balancing-type", "the router's loss, no part of an iteration's time"},
      {"--moe-aux-loss-coeff", "the router's loss, no part of an iteration's time"},
      {"--moe-z-loss-coeff", "the router's loss, no part of an iteration's time"},
      {"--moe-router-score-function", "the router's arithmetic"},
      {"--moe-router-pre-softmax", "the router's arithmetic"},
      {"--moe-router-topk-scaling-factor", "the router's arithmetic"},
      {"--moe-router-enable-expert-bias", "the router's arithmetic"},
      {"--moe-router-bias-update-rate", "the router's arithmetic"},
      {"--moe-router-dtype", "the router's arithmetic"},
      {"--moe-token-drop-policy", "which tokens are dropped, not how many"},
      {"--manual-gc", "Python's garbage collector"},
      {"--manual-gc-interval", "Python's garbage collector"},
  };
  return notes;
}

const std::vector<FlagNote>& unmodelled_flags() {
  static const std::vector<FlagNote> notes = {
      {"--use-megatron-fsdp", "Megatron-FSDP; set zero_stage 3 in the workload section instead"},
      {"--cpu-offloading", "activation offloading is not modelled"},
      {"--optimizer-cpu-offload", "set offload_optimizer in the workload section instead"},
      {"--account-for-embedding-in-pipeline-split", "set layers_per_stage in the workload section instead"},
      {"--account-for-loss-in-pipeline-split", "set layers_per_stage in the workload section instead"},
      {"--pipeline-model-parallel-layout", "set layers_per_stage in the workload section instead"},
      {"--hybrid-override-pattern", "hybrid (Mamba) models are not modelled"},
      {"--num-distributed-optimizer-instances", "one distributed-optimizer instance is modelled"},
      {"--delay-wgrad-compute", "a delayed weight-gradient pass is not modelled"},
      {"--fp8-param-gather", "fp8 weight all-gathers are not modelled"},
      {"--moe-layer-recompute", "recomputation of MoE layers alone is not modelled"},
      {"--recompute-modules", "recomputation of chosen modules is not modelled"},
      {"--decoder-seq-length", "encoder-decoder models are not modelled"},
      {"--encoder-num-layers", "encoder-decoder models are not modelled"},
  };
  return notes;
}

const std::vector<FlagAlias>& flag_aliases() {
  static const std::vector<FlagAlias> aliases = {
      {"--use-rotary-position-embeddings", "--position-embedding-type", "rope"},
      {"--recompute-activations", "--recompute-granularity", "selective"},
  };
  return aliases;
}

}  // namespace zs::workload::megatron
