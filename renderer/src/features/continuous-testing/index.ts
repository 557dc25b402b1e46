// Continuous testing's public face: the card that leads from a project's Overview to its page (lint:imports).
export { ContinuousTestingCard } from './components/continuous-testing-card';
