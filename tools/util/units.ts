// Distances: the network files keep miles (the benchmark's unit); imported feeds and operators think in kilometres.
export const KM_PER_MILE = 1.609344;
export const MILES_PER_KM = 1 / KM_PER_MILE;
