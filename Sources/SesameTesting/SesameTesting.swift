import Sesame
