# flake8: noqa

from .base_environment import TextEnvironment, TextHistory
