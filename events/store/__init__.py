"""The event stores: the port, the one sealing plan and group commit, and one module per backend."""
