"""Device adapters.  Each turns device input into events on a queue and renders views it is
given; each has a mock backend (the default off the Pi) chosen by configuration."""
