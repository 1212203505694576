# Megatron-LM arguments for "Llama-2-70B-class on 64 H100 (seed example)", written by Layout Planner.
# Layout: TP 8 x PP 4 x CP 1 x DP 2 = 64 GPUs. Megatron-LM derives DP from the world size: launch
# 64 processes, e.g. torchrun --nnodes 8 --nproc-per-node 8 pretrain_gpt.py "${MEGATRON_ARGS[@]}" \
#   plus your data, tokenizer, learning-rate and checkpoint arguments.
MEGATRON_ARGS=(
  # Parallelism
  --tensor-model-parallel-size 8
  --pipeline-model-parallel-size 4
  --context-parallel-size 1
  --sequence-parallel
  --use-distributed-optimizer                     # ZeRO-1
  # Batch and sequence
  --micro-batch-size 2
  --global-batch-size 64                          # 2 x 16 micro batches x DP 2
  --seq-length 4096
  --train-iters 7629395                           # 2.00 T tokens
  # Model
  --num-layers 80
  --hidden-size 8192
  --ffn-hidden-size 28672
  --num-attention-heads 64
  --group-query-attention
  --num-query-groups 8
  --max-position-embeddings 4096
  --position-embedding-type rope
  --normalization RMSNorm
  --swiglu
  --disable-bias-linear
  --untie-embeddings-and-output-weights
  --attention-dropout 0.0
  --hidden-dropout 0.0
  # vocabulary 32000: set by the tokenizer (--tokenizer-type, --tokenizer-model)
  # Precision, memory and kernels
  --bf16
  --recompute-granularity selective
  --attention-backend auto
  --optimizer adam
)
