# Stand-in for transformers.training_args (see transformers/__init__.py):
# unsloth_zoo.loss_utils imports ParallelMode at module level, to tell the
# Trainer's data-parallel modes apart; the values are transformers' names.
from enum import Enum


class ParallelMode(Enum):
    NOT_PARALLEL = "not_parallel"
    NOT_DISTRIBUTED = "not_distributed"
    DISTRIBUTED = "distributed"
    SAGEMAKER_MODEL_PARALLEL = "sagemaker_model_parallel"
    SAGEMAKER_DATA_PARALLEL = "sagemaker_data_parallel"
    TPU = "tpu"
