//! IJCAI competitions of Chinese Standard Mahjong through the services.
