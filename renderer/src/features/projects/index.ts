// The projects feature's public face: the project list, for the pickers of other features (lint:imports).
export { useProjects } from './hooks/use-projects';
