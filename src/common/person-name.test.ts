import { describe, expect, it } from 'vitest';
import { nameFirstNameFirst } from './person-name';

describe('nameFirstNameFirst', () => {
  it('turns "Last, First" round', () => {
    expect(nameFirstNameFirst('Nguyen, Linh')).toBe('Linh Nguyen');
    expect(nameFirstNameFirst('  de la Cruz ,  Ana María ')).toBe('Ana María de la Cruz');
  });

  it('leaves names that are not "Last, First" as given', () => {
    expect(nameFirstNameFirst('Linh Nguyen')).toBe('Linh Nguyen');
    expect(nameFirstNameFirst('King, Jr., Martin')).toBe('King, Jr., Martin');
    expect(nameFirstNameFirst('Nguyen,')).toBe('Nguyen,');
  });
});
