//! bot-host: where bots live (work in progress).
