// The whole kit's rules as one string: the shared ones and every component's. For a page or
// test that wants all of it (adoptKitStyles gives a root only the components loaded).
import { sharedKitStyles } from './styles.js';
import { BUDGET_STYLES } from './styles-budget.js';
import { MATRIX_STYLES } from './styles-matrix.js';
import { STACKED_STYLES } from './styles-stacked.js';

export const kitStyles = sharedKitStyles() + MATRIX_STYLES + BUDGET_STYLES + STACKED_STYLES;
