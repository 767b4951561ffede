"""The shipped configs (YAML): the main job's built-in settings (demo.yaml), training recipes, a schedule example."""
