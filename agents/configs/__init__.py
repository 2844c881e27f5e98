"""Built-in agent configurations (YAML files read by load_agent_config)."""
