"""The long-running service: scheduler, transcript watching, signals, systemd protocol."""
