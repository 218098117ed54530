#pragma once
inline int blocks_for(int count) { return (count + 255) / 256; }
