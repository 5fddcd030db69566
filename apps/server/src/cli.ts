#!/usr/bin/env node
// The heap setting first, then the program: a static import of the program would load (and grow
// the young generation with) every module before any of them runs.
import './heap-settings.js';

await import('./run.js');
