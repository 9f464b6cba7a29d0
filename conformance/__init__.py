"""gostop-conformance: the scenario runner and the harness that validates engines."""
