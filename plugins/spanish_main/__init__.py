"""Pirates of the Spanish Main (WizKids), advanced rules: the lantable game plugin."""
